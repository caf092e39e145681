import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../../helpers/app.js';
import { one, rows } from '../../../src/platform/db/types.js';
import { V1 } from '../helpers.js';
import { APPLY_FIELDS, GOOD_IBAN, multipart, PDF, PNG } from './helpers.js';

describe('vendor applications (design §6)', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'rova-apps-'));
  const bodies: string[] = [];
  beforeAll(async () => {
    t = await makeApp({ env: { DATA_DIR: dataDir, RENTAL_WRITE_RATE_LIMIT: '100000' } });
    admin = { 'x-rova-api-key': (await t.userWithKey('administrator')).key };
  }, 300_000);
  afterAll(async () => {
    await t?.close();
    rmSync(dataDir, { recursive: true, force: true });
    // the clear IBAN never appears in any response body of this suite
    for (const b of bodies) expect(b).not.toContain(GOOD_IBAN);
  });

  const call = async (o: Parameters<TestApp['inject']>[0]) => {
    const r = await t.inject(o);
    bodies.push(r.body);
    return r;
  };
  const apply = (
    h: Record<string, string>,
    fields: Record<string, string> = APPLY_FIELDS,
    files = [{ field: 'document_id', name: 'passport.pdf', data: PDF }],
  ) => {
    const m = multipart(fields, files);
    return call({
      method: 'POST',
      url: `${V1}/vendor/application`,
      headers: { ...h, ...m.headers },
      payload: m.payload,
    });
  };
  const customer = async () => ({ 'x-rova-api-key': (await t.userWithKey('customer')).key });

  it('a customer applies with documents: 201, IBAN masked, files stored under server-chosen names; a second application → 409', async () => {
    const h = await customer();
    const r = await apply(h, APPLY_FIELDS, [
      { field: 'document_id', name: 'passport.pdf', data: PDF },
      { field: 'document_license', name: 'licence scan.png', data: PNG },
    ]);
    expect(r.statusCode).toBe(201);
    const d = r.json().data;
    expect(d).toMatchObject({
      status: 'pending',
      city: 'Berlin',
      iban_masked: 'DE** **** 3000',
      terms_version: '2026-01',
      service_areas: ['Berlin', 'Potsdam'],
    });
    expect(d.documents.map((x: { kind: string; mime: string }) => [x.kind, x.mime])).toEqual([
      ['id', 'application/pdf'],
      ['license', 'image/png'],
    ]);
    const keys: string[] = [];
    for await (const k of t.platform.storage.keys('vendor-documents/')) keys.push(k);
    expect(keys.length).toBeGreaterThanOrEqual(2);
    expect(keys.every((k) => /^vendor-documents\/[0-9a-f]{32}\.(pdf|png)$/.test(k))).toBe(true);
    expect(t.platform.storage.kind).toBe('database'); // the default: every node reads what any node stored
    expect(existsSync(path.join(dataDir, 'uploads'))).toBe(false);
    const stored = await one<{ iban_encrypted: string }>(
      t.platform.db,
      sql`SELECT iban_encrypted FROM vendor_applications WHERE id = ${d.id}`,
    );
    expect(stored!.iban_encrypted).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(stored!.iban_encrypted).not.toContain('3000');
    const again = await apply(h);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      success: false,
      error_code: 'STATE_CONFLICT',
      message: 'You already have a pending application.',
    });
    const own = await call({ method: 'GET', url: `${V1}/vendor/application`, headers: h });
    expect(own.json().data).toMatchObject({ id: d.id, status: 'pending', iban_masked: 'DE** **** 3000' });
    const ev = await rows<{ type: string }>(
      t.platform.db,
      sql`SELECT type FROM rova_events WHERE payload->'data'->>'application_id' = ${String(d.id)}`,
    );
    expect(ev.map((e) => e.type)).toEqual(['vendor.application.submitted']);
  });

  it('bad input: IBAN checksum, missing terms, no id document → 400; wrong content type → 400; > 10 MB → 413; path tricks → 400', async () => {
    const h = await customer();
    const cases: [Record<string, string>, Parameters<typeof apply>[2], number, string][] = [
      [{ ...APPLY_FIELDS, iban: 'DE89370400440532013001' }, undefined, 400, 'iban'],
      [{ ...APPLY_FIELDS, terms_accepted: 'false' }, undefined, 400, 'terms_accepted'],
      [{ ...APPLY_FIELDS, terms_version: '2019-01' }, undefined, 400, 'terms_version'],
      [APPLY_FIELDS, [], 400, 'document_id'],
      [
        APPLY_FIELDS,
        [{ field: 'document_id', name: 'id.pdf', data: Buffer.from('#!/bin/sh\necho pwned\n') }],
        400,
        'documents',
      ],
      [
        APPLY_FIELDS,
        [{ field: 'document_id', name: 'id.pdf', data: Buffer.concat([PDF, Buffer.alloc(10 * 1024 * 1024)]) }],
        413,
        '',
      ],
      [APPLY_FIELDS, [{ field: 'document_id', name: '../../etc/passwd.pdf', data: PDF }], 400, 'file_name'],
      [APPLY_FIELDS, [{ field: 'document_id', name: '..\\..\\boot.ini', data: PDF }], 400, 'file_name'],
      [APPLY_FIELDS, [{ field: 'document_secret', name: 'x.pdf', data: PDF }], 400, 'document_secret'],
    ];
    for (const [fields, files, status, field] of cases) {
      const r = await apply(h, fields, files);
      expect(r.statusCode, `${field} ${r.body}`).toBe(status);
      expect(r.json().success).toBe(false);
      if (field) expect(r.json().details?.field).toBe(field);
    }
    expect(
      (await call({ method: 'POST', url: `${V1}/vendor/application`, headers: h, payload: APPLY_FIELDS })).statusCode,
    ).toBe(400);
    expect((await call({ method: 'GET', url: `${V1}/vendor/application`, headers: h })).statusCode).toBe(404);
    const m = multipart(APPLY_FIELDS);
    expect(
      (await call({ method: 'POST', url: `${V1}/vendor/application`, headers: m.headers, payload: m.payload }))
        .statusCode,
    ).toBe(401);
  });

  it('a truncated or boundary-less multipart body → 400 INVALID_PARAMS (malformed_multipart), never a 500, nothing stored', async () => {
    const h = await customer();
    const whole = multipart(APPLY_FIELDS, [{ field: 'document_id', name: 'id.pdf', data: PDF }]);
    const bodies: [string, Buffer, string][] = [
      ['truncated in a file', whole.payload.subarray(0, whole.payload.length - 40), whole.headers['content-type']!],
      ['truncated in the headers', whole.payload.subarray(0, 30), whole.headers['content-type']!],
      ['no boundary parameter', whole.payload, 'multipart/form-data'],
      ['a boundary the body never uses', whole.payload, 'multipart/form-data; boundary=nothing-like-it'],
    ];
    for (const [what, payload, type] of bodies) {
      const r = await call({
        method: 'POST',
        url: `${V1}/vendor/application`,
        headers: { ...h, 'content-type': type },
        payload,
      });
      expect(r.statusCode, `${what}: ${r.body}`).toBe(400);
      expect(r.json()).toMatchObject({ success: false, error_code: 'INVALID_PARAMS' });
    }
    expect((await call({ method: 'GET', url: `${V1}/vendor/application`, headers: h })).statusCode).toBe(404);
  });

  it('the form takes its documented fields only: an unknown text field is a 400 naming it, nothing stored; _wpnonce is allowed', async () => {
    const h = await customer();
    for (const [fields, name, why] of [
      [{ ...APPLY_FIELDS, commission_rate: '0' }, 'commission_rate', 'unknown field "commission_rate"'],
      [{ ...APPLY_FIELDS, document_id: 'not a file' }, 'document_id', 'document_id must be sent as a file'],
    ] as const) {
      const r = await apply(h, fields);
      expect(r.statusCode, r.body).toBe(400);
      expect(r.json()).toEqual({
        success: false,
        error_code: 'INVALID_PARAMS',
        message: `Invalid parameter(s): ${name}`,
        details: { params: { [name]: why } },
      });
    }
    expect((await call({ method: 'GET', url: `${V1}/vendor/application`, headers: h })).statusCode).toBe(404);
    const ok = await apply(h, { ...APPLY_FIELDS, _wpnonce: 'abc123' });
    expect(ok.statusCode, ok.body).toBe(201);
  });

  it('admin: list pending, approve → vendor role + active vendor; deciding again → 409; reject needs a reason; 24 h re-apply rule', async () => {
    const u = await t.userWithKey('customer');
    const h = { 'x-rova-api-key': u.key };
    const id = (await apply(h)).json().data.id as number;
    const list = await call({
      method: 'GET',
      url: `${V1}/vendor-management/applications?per_page=100`,
      headers: admin,
    });
    expect(list.statusCode).toBe(200);
    expect(list.json().data.items.some((a: { id: number }) => a.id === id)).toBe(true);
    const detail = await call({ method: 'GET', url: `${V1}/vendor-management/applications/${id}`, headers: admin });
    expect(detail.json().data).toMatchObject({
      id,
      iban_masked: 'DE** **** 3000',
      documents: [{ kind: 'id', label: 'ID Document' }],
    });
    const doc = detail.json().data.documents[0];
    const dl = await t.inject({ method: 'GET', url: doc.url, headers: admin });
    expect(dl.statusCode).toBe(200);
    expect(dl.headers['content-type']).toBe('application/pdf');
    expect(dl.headers['content-disposition']).toMatch(/^attachment; filename="document-\d+\.pdf"$/);
    expect(dl.rawPayload.equals(PDF)).toBe(true);
    expect((await t.inject({ method: 'GET', url: doc.url, headers: h })).statusCode).toBe(200);
    expect((await call({ method: 'GET', url: doc.url, headers: await customer() })).statusCode).toBe(404);

    expect((await call({ method: 'POST', url: `${V1}/vendor-management/${id}/approve`, headers: h })).statusCode).toBe(
      403,
    );
    const ok = await call({ method: 'POST', url: `${V1}/vendor-management/${id}/approve`, headers: admin });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ success: true, data: { id, status: 'approved', vendor_id: u.userId } });
    expect(
      (await t.platform.auth.findUser(
        (await one<{ login: string }>(t.platform.db, sql`SELECT login FROM rova_users WHERE id = ${u.userId}`))!.login,
      ))!.role,
    ).toBe('vendor');
    expect(await one(t.platform.db, sql`SELECT status FROM rental_vendors WHERE user_id = ${u.userId}`)).toEqual({
      status: 'active',
    });
    const twice = await call({ method: 'POST', url: `${V1}/vendor-management/${id}/approve`, headers: admin });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error_code).toBe('STATE_CONFLICT');
    expect(
      (
        await call({
          method: 'POST',
          url: `${V1}/vendor-management/${id}/reject`,
          headers: admin,
          payload: { reason: 'late' },
        })
      ).statusCode,
    ).toBe(409);
    expect(
      (await call({ method: 'POST', url: `${V1}/vendor-management/999999/approve`, headers: admin })).statusCode,
    ).toBe(404);
    // a vendor cannot apply again
    expect((await apply(h)).statusCode).toBe(409);

    const h2 = await customer();
    const id2 = (await apply(h2)).json().data.id as number;
    const noReason = await call({
      method: 'POST',
      url: `${V1}/vendor-management/${id2}/reject`,
      headers: admin,
      payload: { reason: '  ' },
    });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().details.field).toBe('reason');
    const rej = await call({
      method: 'POST',
      url: `${V1}/vendor-management/${id2}/reject`,
      headers: admin,
      payload: { reason: 'Incomplete documentation.' },
    });
    expect(rej.json()).toMatchObject({
      success: true,
      data: { id: id2, status: 'rejected', reason: 'Incomplete documentation.' },
    });
    const soon = await apply(h2);
    expect(soon.statusCode).toBe(409);
    expect(soon.json().message).toMatch(/24 hours/);
    const mine = await call({ method: 'GET', url: `${V1}/vendor/application`, headers: h2 });
    expect(mine.json().data).toMatchObject({ status: 'rejected', rejection_reason: 'Incomplete documentation.' });
    expect(mine.json().data.can_reapply_at).not.toBeNull();
    const types = await rows<{ type: string }>(
      t.platform.db,
      sql`SELECT type FROM rova_events WHERE type LIKE 'vendor.application.%' ORDER BY id`,
    );
    expect(types.map((x) => x.type)).toEqual(
      expect.arrayContaining(['vendor.application.approved', 'vendor.application.rejected']),
    );
  });
});
