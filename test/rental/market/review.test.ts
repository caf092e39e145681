import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../../helpers/app.js';
import { rows } from '../../../src/platform/db/types.js';
import { V1 } from '../helpers.js';
import { APPLY_FIELDS, multipart, PDF, V2, vendor } from './helpers.js';

/** The operator's review queue (issue 35): vendors' new vehicles and vendor applications, decided with a reason. */
describe('review queue', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  beforeAll(async () => {
    t = await makeApp({ env: { RENTAL_WRITE_RATE_LIMIT: '100000' } });
    admin = { 'x-rova-api-key': (await t.userWithKey('administrator')).key };
  }, 300_000);
  afterAll(async () => t?.close());

  const emailOf = async (userId: number) =>
    (await rows<{ email: string }>(t.platform.db, sql`SELECT email FROM rova_users WHERE id = ${userId}`))[0]!.email;
  const mailsAbout = (about: string) =>
    rows<{ to_address: string; template: string; subject: string; text_body: string; status: string }>(
      t.platform.db,
      sql`SELECT to_address, template, subject, text_body, status FROM rova_mail_outbox WHERE about = ${about} ORDER BY id`,
    );
  const queue = async () =>
    (await t.inject({ method: 'GET', url: `${V1}/vendor-management/review-queue`, headers: admin })).json().data;
  /** What a customer's search finds (the public catalogue). */
  const found = async (q: string) => {
    const r = await t.inject({ method: 'GET', url: `${V2}/vehicles/search?q=${encodeURIComponent(q)}` });
    expect(r.statusCode, r.body).toBe(200);
    return r.json().data.items.map((x: { vehicle_id: number }) => x.vehicle_id) as number[];
  };
  const submit = async (h: Record<string, string>, name: string) => {
    const r = await t.inject({
      method: 'POST',
      url: `${V1}/vendor/vehicles`,
      headers: h,
      payload: { name, price_per_day: 61.25, brand: 'Renault', model: 'Clio', seats: 5 },
    });
    expect(r.statusCode).toBe(201);
    return r.json().data.id as number;
  };

  it('a new vehicle waits in the queue with its prices and vendor; approve → active and listed, the vendor mailed; again → 409', async () => {
    const before = await queue();
    const v = await vendor(t);
    const id = await submit(v.h, 'Renault Clio for review');
    expect(await queue()).toEqual({
      vehicles: before.vehicles + 1,
      applications: before.applications,
      total: before.total + 1,
    });
    const list = await t.inject({
      method: 'GET',
      url: `${V1}/vendor-management/vehicles?per_page=100`,
      headers: admin,
    });
    expect(list.statusCode).toBe(200);
    const row = list.json().data.items.find((x: { id: number }) => x.id === id);
    expect(row).toMatchObject({
      id,
      name: 'Renault Clio for review',
      lifecycle: 'pending_review',
      price_per_day: 61.25,
      currency: 'USD',
      vendor_id: v.id,
      vendor_email: await emailOf(v.id),
      review_reason: null,
      reviewed_at: null,
    });
    const detail = await t.inject({ method: 'GET', url: `${V1}/vendor-management/vehicles/${id}`, headers: admin });
    expect(detail.json().data).toEqual({ ...row, photos: [] }); // the detail adds the photos (none yet)
    expect(await found('Clio for review')).toEqual([]);

    const ok = await t.inject({
      method: 'POST',
      url: `${V1}/vendor-management/vehicles/${id}/approve`,
      headers: admin,
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ success: true, data: { id, lifecycle: 'active' } });
    expect(await queue()).toEqual(before);
    expect(await found('Clio for review')).toEqual([id]);
    const mails = await mailsAbout(`vehicle:${id}`);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ to_address: await emailOf(v.id), template: 'listing_approved', status: 'stored' });
    expect(mails[0]!.text_body).toContain('Vehicle: Renault Clio for review');

    const twice = await t.inject({
      method: 'POST',
      url: `${V1}/vendor-management/vehicles/${id}/approve`,
      headers: admin,
    });
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toMatchObject({ error_code: 'STATE_CONFLICT', details: { lifecycle: 'active' } });
    const rejectLate = await t.inject({
      method: 'POST',
      url: `${V1}/vendor-management/vehicles/${id}/reject`,
      headers: admin,
      payload: { reason: 'Too late' },
    });
    expect(rejectLate.statusCode).toBe(409);
    expect(await mailsAbout(`vehicle:${id}`)).toHaveLength(1);
  });

  it('reject needs a reason; rejected → not bookable, reason for the vendor (portal + mail); resubmitted → waits again', async () => {
    const v = await vendor(t);
    const id = await submit(v.h, 'Clio with bad photos');
    for (const payload of [{ reason: '   ' }, {}]) {
      const r = await t.inject({
        method: 'POST',
        url: `${V1}/vendor-management/vehicles/${id}/reject`,
        headers: admin,
        payload,
      });
      expect(r.statusCode).toBe(400);
      expect(r.json().error_code).toBe('INVALID_PARAMS');
    }
    expect(await mailsAbout(`vehicle:${id}`)).toEqual([]);
    const rej = await t.inject({
      method: 'POST',
      url: `${V1}/vendor-management/vehicles/${id}/reject`,
      headers: admin,
      payload: { reason: ' The price is not the one on your website. ' },
    });
    expect(rej.statusCode).toBe(200);
    expect(rej.json()).toMatchObject({
      success: true,
      data: { id, lifecycle: 'rejected', reason: 'The price is not the one on your website.' },
    });
    const own = (await t.inject({ method: 'GET', url: `${V1}/vendor/vehicles/${id}`, headers: v.h })).json().data;
    expect(own).toMatchObject({
      lifecycle: 'rejected',
      status: 'inactive',
      review_reason: 'The price is not the one on your website.',
    });
    expect(own.reviewed_at).not.toBeNull();
    const mails = await mailsAbout(`vehicle:${id}`);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ to_address: await emailOf(v.id), template: 'listing_rejected' });
    expect(mails[0]!.text_body).toContain('Reason: The price is not the one on your website.');
    expect(mails[0]!.subject).toMatch(/not approved$/);
    const again = await t.inject({
      method: 'POST',
      url: `${V1}/vendor-management/vehicles/${id}/reject`,
      headers: admin,
      payload: { reason: 'x' },
    });
    expect(again.statusCode).toBe(409);

    // the vendor changes it and submits it again: back in the queue, the old reason no longer shown
    expect(
      (
        await t.inject({
          method: 'PUT',
          url: `${V1}/vendor/vehicles/${id}`,
          headers: v.h,
          payload: { price_per_day: 55 },
        })
      ).statusCode,
    ).toBe(200);
    const re = await t.inject({ method: 'POST', url: `${V1}/vendor/vehicles/${id}/relist`, headers: v.h });
    expect(re.statusCode).toBe(200);
    expect(re.json().data).toMatchObject({ lifecycle: 'pending_review', review_reason: null });
    const waiting = await t.inject({
      method: 'GET',
      url: `${V1}/vendor-management/vehicles?per_page=100`,
      headers: admin,
    });
    expect(waiting.json().data.items.find((x: { id: number }) => x.id === id)).toMatchObject({ price_per_day: 55 });
  });

  it('only an administrator reviews: a vendor gets 403 on approve, reject, the queue and its count', async () => {
    const v = await vendor(t);
    const id = await submit(v.h, 'Self-approved?');
    for (const [method, url] of [
      ['POST', `${V1}/vendor-management/vehicles/${id}/approve`],
      ['POST', `${V1}/vendor-management/vehicles/${id}/reject`],
      ['GET', `${V1}/vendor-management/vehicles`],
      ['GET', `${V1}/vendor-management/vehicles/${id}`],
      ['GET', `${V1}/vendor-management/review-queue`],
    ] as const) {
      const r = await t.inject({
        method,
        url,
        headers: v.h,
        ...(method === 'POST' ? { payload: { reason: 'mine' } } : {}),
      });
      expect(r.statusCode, url).toBe(403);
    }
    expect(
      (await t.inject({ method: 'GET', url: `${V1}/vendor/vehicles/${id}`, headers: v.h })).json().data.lifecycle,
    ).toBe('pending_review');
    expect(
      (await t.inject({ method: 'GET', url: `${V1}/vendor-management/vehicles/999999`, headers: admin })).statusCode,
    ).toBe(404);
  });

  it('an application decision mails the applicant (reason on a rejection) and leaves the count', async () => {
    const before = await queue();
    const apply = async () => {
      const u = await t.userWithKey('customer');
      const m = multipart(APPLY_FIELDS, [{ field: 'document_id', name: 'passport.pdf', data: PDF }]);
      const r = await t.inject({
        method: 'POST',
        url: `${V1}/vendor/application`,
        headers: { 'x-rova-api-key': u.key, ...m.headers },
        payload: m.payload,
      });
      expect(r.statusCode).toBe(201);
      return { user: u.userId, id: r.json().data.id as number };
    };
    const a = await apply();
    const b = await apply();
    expect((await queue()).applications).toBe(before.applications + 2);
    const rej = await t.inject({
      method: 'POST',
      url: `${V1}/vendor-management/${a.id}/reject`,
      headers: admin,
      payload: { reason: 'The identity document is unreadable.' },
    });
    expect(rej.statusCode).toBe(200);
    const ok = await t.inject({ method: 'POST', url: `${V1}/vendor-management/${b.id}/approve`, headers: admin });
    expect(ok.statusCode).toBe(200);
    expect((await queue()).applications).toBe(before.applications);
    const [ra] = await mailsAbout(`vendor_application:${a.id}`);
    expect(ra).toMatchObject({ to_address: await emailOf(a.user), template: 'application_rejected' });
    expect(ra!.text_body).toContain('Reason: The identity document is unreadable.');
    const okMails = await mailsAbout(`vendor_application:${b.id}`);
    expect(okMails).toHaveLength(1);
    expect(okMails[0]).toMatchObject({ to_address: await emailOf(b.user), template: 'application_approved' });
    expect(okMails[0]!.text_body).not.toContain('Reason:');
    // a second decision: 409, and no second mail
    expect(
      (await t.inject({ method: 'POST', url: `${V1}/vendor-management/${b.id}/approve`, headers: admin })).statusCode,
    ).toBe(409);
    expect(await mailsAbout(`vendor_application:${b.id}`)).toHaveLength(1);
  });
});
