import { Webhook } from 'standardwebhooks';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../../helpers/app.js';
import { verifyLedger } from '../../../src/modules/rental/ledger/verify.js';
import { V1 } from '../helpers.js';
import { APPLY_FIELDS, GOOD_IBAN, multipart, PDF, V2 } from './helpers.js';

const SECRET = 'whsec_' + Buffer.from('journey-secret-journey-secret-0123').toString('base64');

describe('marketplace journey over HTTP (the README walk-through)', () => {
  let t: TestApp;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'rova-journey-'));
  beforeAll(async () => {
    t = await makeApp({ env: { DATA_DIR: dataDir, ROVA_PAYOUT_WEBHOOK_SECRET: SECRET } });
  }, 300_000);
  afterAll(async () => {
    await t?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('apply → approve → list a vehicle → complete a booking → pending → available → payout → approve → signed paid callback → audit log', async () => {
    const admin = { 'x-rova-api-key': (await t.userWithKey('administrator')).key, 'content-type': 'application/json' };
    const u = await t.userWithKey('customer');
    const me = { 'x-rova-api-key': u.key };
    const bodies: string[] = [];
    const call = async (o: Parameters<TestApp['inject']>[0]) => {
      const r = await t.inject(o);
      bodies.push(r.body);
      expect(r.statusCode, `${o.method} ${o.url}: ${r.body}`).toBeLessThan(300);
      return r.json().data;
    };
    const m = multipart(APPLY_FIELDS, [{ field: 'document_id', name: 'id.pdf', data: PDF }]);
    const app = await call({
      method: 'POST',
      url: `${V1}/vendor/application`,
      headers: { ...me, ...m.headers },
      payload: m.payload,
    });
    await call({ method: 'POST', url: `${V1}/vendor-management/${app.id}/approve`, headers: admin });
    const car = await call({
      method: 'POST',
      url: `${V1}/vendor/vehicles`,
      headers: me,
      payload: { name: "Ada's Golf", price_per_day: 60, category: 'compact' },
    });
    await call({ method: 'POST', url: `${V1}/vendor-management/vehicles/${car.id}/approve`, headers: admin });
    const b = await call({
      method: 'POST',
      url: `${V1}/bookings`,
      headers: admin,
      payload: {
        vehicle_id: car.id,
        customer: { name: 'Bo Renter', email: 'bo@example.test' },
        pickup_date: '2031-03-02',
        return_date: '2031-03-06',
        status: 'confirmed',
      },
    });
    for (const status of ['in_progress', 'completed'])
      await call({ method: 'POST', url: `${V1}/bookings/${b.id}/status`, headers: admin, payload: { status } });
    expect((await call({ method: 'GET', url: `${V2}/ledger/summary`, headers: me })).balances).toMatchObject({
      pending: 204,
      available: 0,
    });
    await call({ method: 'PUT', url: `${V2}/marketplace/settings`, headers: admin, payload: { hold_days: 0 } });
    expect(await call({ method: 'POST', url: `${V2}/ledger/clearing`, headers: admin })).toEqual({ cleared: 1 });
    expect((await call({ method: 'GET', url: `${V2}/ledger/summary`, headers: me })).balances).toMatchObject({
      pending: 0,
      available: 204,
    });
    const payout = (
      await call({
        method: 'POST',
        url: `${V2}/ledger/payouts`,
        headers: { ...me, 'idempotency-key': 'journey-1' },
        payload: { amount: 150 },
      })
    ).payout;
    await call({ method: 'POST', url: `${V2}/payouts/${payout.id}/approve`, headers: admin });
    const body = JSON.stringify({
      payout_id: payout.id,
      status: 'paid',
      amount: 150,
      external_reference: 'BANK-REF-1',
    });
    const at = new Date();
    const paid = await call({
      method: 'POST',
      url: `${V2}/payouts/${payout.id}/callback`,
      payload: body,
      headers: {
        'content-type': 'application/json',
        'webhook-id': 'msg_journey_1',
        'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
        'webhook-signature': new Webhook(SECRET).sign('msg_journey_1', at, body),
      },
    });
    expect(paid).toEqual({ payout_id: payout.id, status: 'paid', idempotent: false });
    const log = await call({ method: 'GET', url: `${V1}/vendor-management/${u.userId}/audit-log`, headers: admin });
    expect(log.items.map((x: { event_type: string }) => x.event_type)).toEqual([
      'payout_paid',
      'payout_approved',
      'payout_requested',
      'commission_cleared',
      'commission_applied',
      'vehicle_approved',
      'vehicle_submitted',
      'vendor_approved',
    ]);
    expect((await call({ method: 'GET', url: `${V2}/ledger/summary`, headers: me })).balances).toMatchObject({
      available: 54,
      on_hold: 0,
      total_paid_out: 150,
      total_earned: 204,
    });
    expect((await verifyLedger(t.platform.db)).ok).toBe(true);
    for (const x of bodies) expect(x).not.toContain(GOOD_IBAN);
  });
});
