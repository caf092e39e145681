import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runHoldExpiry } from '../../../src/modules/rental/bookings/jobs.js';
import { runPaymentReminders } from '../../../src/modules/rental/bookings/reminders/service.js';
import { rows } from '../../../src/platform/db/types.js';
import { mailDeliveryOf } from '../../../src/platform/mail/delivery.js';
import { makeApp, type TestApp } from '../../helpers/app.js';
import { HOUR, MINUTE, moveClock } from '../clock.js';
import { vehicle } from '../helpers.js';
import { vendor, vendorVehicle } from '../market/helpers.js';
import { startSmtp } from './smtp.js';

// Issue 35 item 3, the paths that mailed after their commit: with SMTP_URL set, a lapsed booking, a payment reminder,
// a customer's own cancel and a vendor's cancel each write the customer's mail into the outbox in the transaction of
// the change (listed there, then delivered over SMTP by the outbox's delivery), in the store's language.
const V1 = '/wp-json/rova-rental/v1';
const V2 = '/wp-json/rova-rental/v2';
const R = '/wp-json/rova/v1';

interface OutboxMail {
  to: string;
  subject: string;
  text: string;
  template: string;
  status: string;
  attachments: { filename: string; content_type: string; content: string }[];
}

describe('mails of lapses, reminders and cancels go through the outbox (SMTP_URL set, store language de)', () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let admin: string;
  beforeAll(async () => {
    smtp = await startSmtp();
    t = await makeApp({
      env: {
        RENTAL_WRITE_RATE_LIMIT: '100000',
        RENTAL_PUBLIC_RATE_LIMIT: '100000',
        STORE_TIMEZONE: 'Europe/Berlin',
        STORE_LANGUAGE: 'de',
        STORE_NAME: 'Autohaus',
        PUBLIC_URL: 'https://rent.example.test',
        SMTP_URL: smtp.url,
      },
    });
    admin = (await t.userWithKey('administrator')).key;
  }, 240_000);
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const outbox = async (to: string): Promise<OutboxMail[]> => {
    const r = await t.inject({
      method: 'GET',
      url: `${R}/outbox?to=${encodeURIComponent(to)}`,
      headers: { 'x-rova-api-key': admin },
    });
    expect(r.statusCode, r.body).toBe(200);
    return (r.json() as OutboxMail[]).reverse();
  };
  const delivered = async (to: string, template: string): Promise<void> => {
    await mailDeliveryOf(t.platform).idle();
    await mailDeliveryOf(t.platform).deliverDue();
    const m = (await outbox(to)).find((x) => x.template === template);
    expect(m?.status).toBe('sent');
    // the SMTP server's copy: its subject ends as the outbox row's does (the reference of a booking mail)
    const tail = m!.subject.split(' ').at(-1)!;
    expect(smtp.mails.some((x) => x.to.some((a) => a.includes(to)) && x.subject.endsWith(tail))).toBe(true);
  };
  let n = 0;
  const bankTransfer = async (v: number, d1: string, d2: string) => {
    n += 1;
    const email = `lapse-${n}@example.test`;
    const r = await t.inject({
      method: 'POST',
      url: `${V2}/booking/create`,
      headers: { 'x-rova-api-key': admin },
      payload: {
        vehicle_id: v,
        pickup_date: d1,
        return_date: d2,
        payment_method: 'bank_transfer',
        payment_plan: 'full',
        customer: { name: 'Erika Muster', email },
      },
    });
    expect(r.statusCode, r.body).toBe(201);
    return { id: r.json().data.booking.id as number, reference: r.json().data.booking.reference as string, email };
  };

  it('a bank transfer: the reminder, then the lapse, each a row of the outbox, sent over SMTP', async () => {
    const b = await bankTransfer(await vehicle(t), '2034-05-10', '2034-05-12');
    await moveClock(t.platform.db, 25 * HOUR, [b.id]); // 23 h left
    expect(await runPaymentReminders(t.platform)).toBe(1);
    const reminded = await outbox(b.email);
    expect(reminded.map((m) => m.template)).toEqual(['booking_created', 'payment_reminder']);
    expect(reminded[1]!.subject).toBe(`[Autohaus] Zahlungserinnerung — ${b.reference}`);
    expect(reminded[1]!.attachments.map((a) => a.filename)).toEqual([`booking-${b.reference}.ics`]);
    await delivered(b.email, 'payment_reminder');

    await moveClock(t.platform.db, 23 * HOUR + MINUTE, [b.id]);
    expect(await runHoldExpiry(t.platform)).toBe(1);
    const all = await outbox(b.email);
    expect(all.map((m) => m.template)).toEqual(['booking_created', 'payment_reminder', 'booking_cancelled']);
    expect(all[2]!.subject).toBe(`[Autohaus] Buchung storniert — ${b.reference}`);
    expect(all[2]!.text).toContain('Die Zahlungsfrist ist vor Eingang der Zahlung abgelaufen');
    expect(all[2]!.attachments[0]!.content_type).toBe('text/calendar; charset=utf-8; method=CANCEL');
    await delivered(b.email, 'booking_cancelled');
  });

  it('a lapse swept by another write on the vehicle is mailed in that write’s transaction, once', async () => {
    const v = await vehicle(t);
    const b = await bankTransfer(v, '2034-06-10', '2034-06-12');
    await moveClock(t.platform.db, 3 * 24 * HOUR, [b.id]);
    // a booking of the same dates sweeps the lapsed hold under the vehicle lock: its mail is written with it
    const other = await bankTransfer(v, '2034-06-10', '2034-06-12');
    expect(other.id).toBeGreaterThan(b.id);
    expect((await outbox(b.email)).map((m) => m.template)).toEqual(['booking_created', 'booking_cancelled']);
    expect(await runHoldExpiry(t.platform)).toBe(0);
    expect((await outbox(b.email)).map((m) => m.template)).toEqual(['booking_created', 'booking_cancelled']);
  });

  it("a customer's own cancel: booking_cancelled with the fee and the refund in the outbox", async () => {
    const customer = { 'x-rova-api-key': (await t.userWithKey('customer')).key };
    const created = await t.inject({
      method: 'POST',
      url: `${V2}/booking/create`,
      headers: customer,
      payload: {
        vehicle_id: await vehicle(t),
        pickup_date: '2034-07-10',
        return_date: '2034-07-12',
        payment_method: 'offline',
        payment_plan: 'full',
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().data.booking.id as number;
    const { email, reference } = (
      await rows<{ email: string; reference: string }>(
        t.platform.db,
        sql`SELECT customer_email AS email, reference FROM rental_bookings WHERE id = ${id}`,
      )
    )[0]!;
    const c = await t.inject({ method: 'POST', url: `${V2}/my/bookings/${id}/cancel`, headers: customer });
    expect(c.statusCode, c.body).toBe(200);
    const ms = await outbox(email);
    expect(ms.map((m) => m.template)).toEqual(['booking_created', 'booking_cancelled']);
    expect(ms[1]!.subject).toBe(`[Autohaus] Buchung storniert — ${reference}`);
    expect(ms[1]!.text).toContain('Stornogebühr: 0.00');
    expect(ms[1]!.text).toContain('Erstattung: 0.00');
    await delivered(email, 'booking_cancelled');
  });

  it("a vendor's cancel tells the customer: the reason, the vendor's note, the refund, the .ics cancelled", async () => {
    const v = await vendor(t);
    const car = await vendorVehicle(t, v.id);
    const b = await bankTransfer(car, '2034-08-10', '2034-08-12');
    const paid = await t.inject({
      method: 'POST',
      url: `${V2}/bookings/${b.id}/mark-paid`,
      headers: { 'x-rova-api-key': admin },
    });
    expect(paid.statusCode, paid.body).toBe(200);
    const r = await t.inject({
      method: 'POST',
      url: `${V1}/vendor/bookings/${b.id}/cancel`,
      headers: v.h,
      payload: { reason: 'Motorschaden' },
    });
    expect(r.statusCode, r.body).toBe(200);
    const ms = await outbox(b.email);
    const cancelled = ms.filter((m) => m.template === 'booking_cancelled');
    expect(cancelled).toHaveLength(1);
    expect(cancelled[0]!.subject).toBe(`[Autohaus] Buchung storniert — ${b.reference}`);
    expect(cancelled[0]!.text).toContain(
      'Grund: Das Fahrzeug ist nicht mehr verfügbar: Sein Anbieter hat die Buchung storniert.',
    );
    expect(cancelled[0]!.text).toContain('Anmerkung: Motorschaden');
    expect(cancelled[0]!.text).toContain('Erstattung: Alles, was Sie für diese Buchung bezahlt haben, wird erstattet.');
    expect(cancelled[0]!.attachments[0]!.content_type).toBe('text/calendar; charset=utf-8; method=CANCEL');
    await delivered(b.email, 'booking_cancelled');
  });

  it('an account mail (registration) is listed in the outbox too, and delivered from there', async () => {
    const email = 'register-smtp@example.test';
    const r = await t.inject({
      method: 'POST',
      url: `${R}/auth/register`,
      payload: { email, password: 'outbox password' },
    });
    expect(r.statusCode, r.body).toBeLessThan(300);
    expect((await outbox(email)).map((m) => m.template)).toEqual(['verify_email']);
    await delivered(email, 'verify_email');
  });
});
