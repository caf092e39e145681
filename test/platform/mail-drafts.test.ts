// Issue 39.3: a booking mail is stored as its template's data (the outbox's `draft`) by the booking's own statement,
// and rendered when it is read (the admin's outbox) or sent (the delivery, which then keeps what it sent). A draft no
// running module renders is shown as such and is not sent.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/platform/db/types.js';
import { mailDeliveryOf } from '../../src/platform/mail/delivery.js';
import { makeApp, type TestApp } from '../helpers/app.js';
import { location, vehicle } from '../rental/helpers.js';
import { startSmtp } from '../rental/journey/smtp.js';

const V2 = '/wp-json/rova-rental/v2';
const R = '/wp-json/rova/v1';

interface Listed {
  id: number;
  subject: string;
  text: string;
  html: string;
  template: string;
  status: string;
  error: string | null;
  attachments: { filename: string; content_type: string; content: string }[];
}

async function book(
  t: TestApp,
  key: string,
  car: number,
  day: number,
): Promise<{ id: number; reference: string; email: string }> {
  const d = (n: number) => new Date(Date.UTC(2033, 4, 1 + n)).toISOString().slice(0, 10);
  const r = await t.inject({
    method: 'POST',
    url: `${V2}/booking/create`,
    headers: { 'x-rova-api-key': key },
    payload: {
      vehicle_id: car,
      pickup_date: d(day),
      return_date: d(day + 2),
      payment_method: 'offline',
      payment_plan: 'full',
    },
  });
  expect(r.statusCode, r.body).toBe(201);
  const b = r.json().data.booking as { id: number; reference: string };
  const [row] = await rows<{ email: string }>(
    t.platform.db,
    sql`SELECT customer_email AS email FROM rental_bookings WHERE id = ${b.id}`,
  );
  return { id: b.id, reference: b.reference, email: row!.email };
}

async function listed(t: TestApp, admin: string, to: string): Promise<Listed[]> {
  const r = await t.inject({
    method: 'GET',
    url: `${R}/outbox?to=${encodeURIComponent(to)}`,
    headers: { 'x-rova-api-key': admin },
  });
  expect(r.statusCode, r.body).toBe(200);
  return r.json() as Listed[];
}

describe('booking mails stored as drafts, without SMTP_URL', () => {
  let t: TestApp;
  let admin: string;
  let car: number;
  beforeAll(async () => {
    t = await makeApp({ env: { RENTAL_WRITE_RATE_LIMIT: '100000', STORE_NAME: 'Drafts & Co' } });
    admin = (await t.userWithKey('administrator')).key;
    const office = await location(t, { name: 'Old Town', address: 'Main St 1', city: 'Izmir' });
    car = await vehicle(t, { name: 'Renault Clio', location_id: office });
  }, 240_000);
  afterAll(async () => t?.close());

  it('the booking writes the draft, not the bodies; the outbox shows it rendered, the same on every read', async () => {
    const c = await t.userWithKey('customer');
    const b = await book(t, c.key, car, 0);
    const [row] = await rows<{
      subject: string;
      text_body: string | null;
      html_body: string | null;
      attachments: unknown[];
      kind: string;
      vehicle: string;
    }>(
      t.platform.db,
      sql`SELECT subject, text_body, html_body, attachments, draft->>'kind' AS kind, draft->>'vehicle' AS vehicle
        FROM rova_mail_outbox WHERE about = ${`booking:${b.id}`}`,
    );
    expect(row).toEqual({
      subject: `[Drafts & Co] Booking received — ${b.reference}`,
      text_body: null,
      html_body: null,
      attachments: [],
      kind: 'booking_created',
      vehicle: 'Renault Clio',
    });

    const first = await listed(t, admin, b.email);
    expect(first).toHaveLength(1);
    const m = first[0]!;
    expect(m).toMatchObject({ template: 'booking_created', status: 'stored', error: null, subject: row!.subject });
    expect(m.text).toContain('Thank you for your booking. Here are its details.');
    expect(m.text).toContain(`Reference: ${b.reference}`);
    expect(m.text).toContain('Vehicle: Renault Clio');
    expect(m.text).toContain('Pick-up location: Old Town, Main St 1, Izmir');
    expect(m.text).toContain('Amount due now:');
    expect(m.html).toContain('Drafts &amp; Co');
    expect(m.attachments.map((a) => a.filename)).toEqual([`booking-${b.reference}.ics`]);
    expect(m.attachments[0]!.content).toContain(`UID:${b.reference}@`);
    expect(await listed(t, admin, b.email), 'rendered the same on the next read').toEqual(first);
  });

  it('a catalogue change after the booking leaves its mail as it was written', async () => {
    const c = await t.userWithKey('customer');
    const b = await book(t, c.key, car, 10);
    const renamed = await t.inject({
      method: 'PUT',
      url: `/wp-json/rova-rental/v1/vehicles/${car}`,
      headers: { 'x-rova-api-key': admin },
      payload: { name: 'Renault Clio (2024)' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const [m] = await listed(t, admin, b.email);
    expect(m!.text).toContain(`Reference: ${b.reference}`);
    expect(m!.text).toContain('Vehicle: Renault Clio\n');
  });

  it('a draft no running module renders: listed with a note, never empty', async () => {
    await t.platform.db.execute(
      sql`INSERT INTO rova_mail_outbox (to_address, subject, template, status, draft)
        VALUES ('nobody-renders@example.test', 'Unknown', 'not_a_template', 'stored', '{"x":1}'::jsonb)`,
    );
    const [m] = await listed(t, admin, 'nobody-renders@example.test');
    expect(m).toMatchObject({
      template: 'not_a_template',
      text: 'This mail is stored as data and was not rendered: no module of this server renders the template not_a_template.',
      attachments: [],
    });
  });

  it('a booking mail whose draft is not one (damaged data): listed saying so, no 500', async () => {
    await t.platform.db.execute(
      sql`INSERT INTO rova_mail_outbox (to_address, subject, template, status, draft)
        VALUES ('damaged@example.test', 'Damaged', 'booking_created', 'stored', '{"kind":"booking_created"}'::jsonb)`,
    );
    const [m] = await listed(t, admin, 'damaged@example.test');
    expect(m).toMatchObject({
      template: 'booking_created',
      text: "This mail is stored as data and was not rendered: its data is not a booking_created mail's.",
      attachments: [],
    });
  });

  it('a row with neither bodies nor a draft is refused by the database', async () => {
    await expect(
      t.platform.db.execute(
        sql`INSERT INTO rova_mail_outbox (to_address, subject, template, status) VALUES ('x@example.test', 'x', 'x', 'stored')`,
      ),
    ).rejects.toMatchObject({ cause: { code: '23514' } });
  });
});

describe('booking mails stored as drafts, with SMTP_URL', () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let car: number;
  beforeAll(async () => {
    smtp = await startSmtp();
    t = await makeApp({ env: { RENTAL_WRITE_RATE_LIMIT: '100000', SMTP_URL: smtp.url } });
    car = await vehicle(t, { name: 'Dacia Duster' });
  }, 240_000);
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('the delivery renders the draft, sends it with its .ics and keeps what it sent', async () => {
    const c = await t.userWithKey('customer');
    const b = await book(t, c.key, car, 0);
    const about = (m: { decoded: string }) => m.decoded.includes(`Reference: ${b.reference}`);
    await smtp.waitFor(about, 20_000);
    const sent = smtp.mails.filter(about);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.to).toEqual([b.email]);
    expect(sent[0]!.raw).toContain(`booking-${b.reference}.ics`);
    await expect
      .poll(async () => {
        const [r] = await rows<{ status: string; text_body: string | null; files: number }>(
          t.platform.db,
          sql`SELECT status, text_body, jsonb_array_length(attachments) AS files FROM rova_mail_outbox
            WHERE about = ${`booking:${b.id}`}`,
        );
        return r && { status: r.status, text: r.text_body?.includes(`Reference: ${b.reference}`), files: r.files };
      })
      .toEqual({ status: 'sent', text: true, files: 1 });
  });

  it('a draft no running module renders is not sent: refused, to be tried again', async () => {
    await t.platform.db.execute(
      sql`INSERT INTO rova_mail_outbox (to_address, subject, template, status, draft)
        VALUES ('nobody-renders@example.test', 'Unknown', 'not_a_template', 'pending', '{"x":1}'::jsonb)`,
    );
    await mailDeliveryOf(t.platform).deliverDue();
    const [r] = await rows<{ status: string; attempts: number; error: string }>(
      t.platform.db,
      sql`SELECT status, attempts, error FROM rova_mail_outbox WHERE to_address = 'nobody-renders@example.test'`,
    );
    expect(r).toEqual({
      status: 'pending',
      attempts: 1,
      error: 'not sent: no module of this server renders the template not_a_template',
    });
    expect(smtp.mails.filter((m) => m.to.includes('nobody-renders@example.test'))).toEqual([]);
  });
});
