import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookingsAtOnceOf } from '../../../src/modules/rental/bookings/at-once.js';
import { rows } from '../../../src/platform/db/types.js';
import { mailDeliveryOf } from '../../../src/platform/mail/delivery.js';
import { makeApp, type TestApp } from '../../helpers/app.js';
import { icsInstant, parseIcs, type ParsedIcs } from '../../helpers/ics.js';
import { location, vehicle } from '../helpers.js';
import { moveClock, MINUTE } from '../clock.js';
import { startSmtp } from './smtp.js';

// Issue 35 item 3 ("Nobody is told"): the operator's reply, a booking the operator makes or confirms or cancels, and a
// recorded payment each write the customer's mail in the write's own transaction — in the store's language
// (STORE_LANGUAGE=de here) with times in the store's zone, the booking's places, a link to the booking in the
// customer's account (ACCOUNT_URL) and the booking as an .ics event, kept with the mail in the outbox and sent with
// it over SMTP.
const V1 = '/wp-json/rova-rental/v1';
const V2 = '/wp-json/rova-rental/v2';
const R = '/wp-json/rova/v1';
const ACCOUNT = 'https://shop.example.test/konto?from=mail';

interface OutboxMail {
  id: number;
  to: string;
  subject: string;
  text: string;
  html: string;
  template: string;
  status: string;
  attachments: { filename: string; content_type: string; content: string }[];
}

describe('the customer is told (store language de, Europe/Berlin, SMTP)', () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let admin: string;
  let airport: number;
  let station: number;
  let car: number;
  beforeAll(async () => {
    smtp = await startSmtp();
    t = await makeApp({
      env: {
        RENTAL_WRITE_RATE_LIMIT: '100000',
        RENTAL_PUBLIC_RATE_LIMIT: '100000',
        STORE_TIMEZONE: 'Europe/Berlin',
        STORE_LANGUAGE: 'de',
        STORE_NAME: 'Autohaus',
        MAIL_FROM: 'Autohaus <miete@autohaus.example.test>',
        PUBLIC_URL: 'https://rent.example.test',
        ACCOUNT_URL: ACCOUNT,
        SMTP_URL: smtp.url,
      },
    });
    admin = (await t.userWithKey('administrator')).key;
    airport = await location(t, { name: 'Flughafen BER', address: 'Willy-Brandt-Platz 1', city: 'Berlin' });
    station = await location(t, { name: 'Hauptbahnhof', address: 'Europaplatz 1', city: 'Berlin' });
    car = await vehicle(t, { name: 'Fiat Egea', location_id: airport });
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
  const ics = (m: OutboxMail): ParsedIcs => {
    expect(m.attachments).toHaveLength(1);
    expect(m.attachments[0]!.filename).toMatch(/^booking-.+\.ics$/);
    expect(m.attachments[0]!.content_type).toMatch(/^text\/calendar; charset=utf-8; method=(PUBLISH|CANCEL)$/);
    return parseIcs(m.attachments[0]!.content);
  };
  const link = (reference: string) => `${ACCOUNT}&rova_booking=${encodeURIComponent(reference)}`;
  const adminCreate = async (email: string, status: string, day: string) => {
    const r = await t.inject({
      method: 'POST',
      url: `${V1}/bookings`,
      headers: { 'x-rova-api-key': admin },
      payload: {
        vehicle_id: car,
        customer: { name: 'Erika Muster', email },
        pickup_date: day,
        return_date: `${day.slice(0, 8)}${String(Number(day.slice(8)) + 3).padStart(2, '0')}`,
        pickup_time: '10:00',
        return_time: '09:30',
        location_id: airport,
        status,
        payment_method: 'offline',
      },
    });
    expect(r.statusCode, r.body).toBe(201);
    return r.json().data as { id: number; reference: string; pickup_at: string; return_at: string };
  };

  it('a booking the operator creates confirmed: booking_confirmed to the customer, in German, Berlin times, places, link and .ics', async () => {
    const email = 'erika.confirmed@example.test';
    const b = await adminCreate(email, 'confirmed', '2034-06-01');
    const [m, ...more] = await outbox(email);
    expect(more).toEqual([]);
    expect(m).toMatchObject({ to: email, template: 'booking_confirmed' });
    expect(m!.subject).toBe(`[Autohaus] Buchung bestätigt — ${b.reference}`);
    expect(m!.text).toContain('Hallo Erika Muster,');
    expect(m!.text).toContain('Ihre Buchung ist bestätigt.');
    expect(m!.text).toContain(`Buchungsnummer: ${b.reference}`);
    expect(m!.text).toContain('Fahrzeug: Fiat Egea');
    // 10:00 in Berlin (summer time) is 08:00 UTC
    expect(b.pickup_at).toBe('2034-06-01T08:00:00.000Z');
    expect(m!.text).toContain('Abholung: 01.06.2034, 10:00 (Europe/Berlin)');
    expect(m!.text).toContain('Rückgabe: 04.06.2034, 09:30 (Europe/Berlin)');
    expect(m!.text).toContain('Abholort: Flughafen BER, Willy-Brandt-Platz 1, Berlin');
    expect(m!.text).toContain('Rückgabeort: Flughafen BER, Willy-Brandt-Platz 1, Berlin');
    expect(m!.text).toContain('Status: Bestätigt');
    expect(m!.text).toContain(`Ihre Buchung ansehen: ${link(b.reference)}`);
    expect(m!.html).toContain(`href="${link(b.reference).replace(/&/g, '&amp;')}"`);

    const c = ics(m!);
    expect(c.calendar.METHOD).toBe('PUBLISH');
    expect(c.event.UID).toBe(`${b.reference}@rent.example.test`);
    expect(icsInstant(c.event.DTSTART!).toISOString()).toBe('2034-06-01T08:00:00.000Z');
    expect(icsInstant(c.event.DTEND!).toISOString()).toBe('2034-06-04T07:30:00.000Z');
    expect(c.event.SUMMARY).toBe(`Autohaus: Fiat Egea (${b.reference})`);
    expect(c.event.LOCATION).toBe('Flughafen BER, Willy-Brandt-Platz 1, Berlin');
    expect(c.event.STATUS).toBe('CONFIRMED');
    expect(c.event.URL).toBe(link(b.reference));
    expect(c.event.ORGANIZER).toBe('mailto:miete@autohaus.example.test');

    // sent over SMTP with the .ics attached, as stored
    const sent = await smtp.waitFor((x) => x.to.includes(email));
    expect(sent.raw).toMatch(/Content-Type: text\/calendar; charset=utf-8; method=PUBLISH/i);
    expect(sent.raw).toContain(`filename=booking-${b.reference}.ics`);
    expect(attachedIcs(sent.raw)).toBe(m!.attachments[0]!.content);
    await mailDeliveryOf(t.platform).idle();
    expect((await outbox(email))[0]!.status).toBe('sent');
  });

  it('pending, then confirmed, then cancelled by the operator: one mail each, the same UID, SEQUENCE rising, METHOD:CANCEL last', async () => {
    const email = 'erika.moves@example.test';
    const b = await adminCreate(email, 'pending', '2034-07-01');
    await moveClock(t.platform.db, 10 * MINUTE, [b.id]);
    const move = async (status: string) => {
      const r = await t.inject({
        method: 'POST',
        url: `${V1}/bookings/${b.id}/status`,
        headers: { 'x-rova-api-key': admin },
        payload: { status },
      });
      expect(r.statusCode, r.body).toBe(200);
    };
    await move('confirmed');
    await moveClock(t.platform.db, 10 * MINUTE, [b.id]);
    await move('cancelled');
    const ms = await outbox(email);
    expect(ms.map((m) => m.template)).toEqual(['booking_created', 'booking_confirmed', 'booking_cancelled']);
    expect(ms.map((m) => m.subject)).toEqual([
      `[Autohaus] Buchung eingegangen — ${b.reference}`,
      `[Autohaus] Buchung bestätigt — ${b.reference}`,
      `[Autohaus] Buchung storniert — ${b.reference}`,
    ]);
    expect(ms[2]!.text).toContain('Grund: Vom Vermieter storniert.');
    const cals = ms.map(ics);
    expect(new Set(cals.map((c) => c.event.UID))).toEqual(new Set([`${b.reference}@rent.example.test`]));
    const seq = cals.map((c) => Number(c.event.SEQUENCE));
    expect(seq[0]).toBeLessThan(60);
    expect(seq[1]).toBeGreaterThanOrEqual(seq[0]! + 600);
    expect(seq[2]).toBeGreaterThanOrEqual(seq[1]! + 600);
    expect(cals.map((c) => c.event.STATUS)).toEqual(['TENTATIVE', 'CONFIRMED', 'CANCELLED']);
    expect(cals.map((c) => c.calendar.METHOD)).toEqual(['PUBLISH', 'PUBLISH', 'CANCEL']);
    expect(ms[2]!.attachments[0]!.content_type).toBe('text/calendar; charset=utf-8; method=CANCEL');
    expect(cals[2]!.event.ATTENDEE).toBe(`mailto:${email}`);
  });

  it('a recorded payment: payment_received and booking_confirmed written with the payment (none when it is refused)', async () => {
    const email = 'erika.pays@example.test';
    const b = await adminCreate(email, 'pending_payment', '2034-08-01');
    const refused = await t.inject({
      method: 'POST',
      url: `${V2}/bookings/${b.id}/payments`,
      headers: { 'x-rova-api-key': admin, 'idempotency-key': 'pay-bad' },
      payload: { kind: 'full', method: 'cash', amount: 999999 },
    });
    expect(refused.statusCode).toBe(400);
    expect((await outbox(email)).map((m) => m.template)).toEqual(['booking_created']);
    const ok = await t.inject({
      method: 'POST',
      url: `${V2}/bookings/${b.id}/payments`,
      headers: { 'x-rova-api-key': admin, 'idempotency-key': 'pay-ok' },
      payload: { kind: 'full', method: 'cash' },
    });
    expect(ok.statusCode, ok.body).toBe(201);
    const amount = ok.json().data.amount as string;
    const again = await t.inject({
      method: 'POST',
      url: `${V2}/bookings/${b.id}/payments`,
      headers: { 'x-rova-api-key': admin, 'idempotency-key': 'pay-ok' },
      payload: { kind: 'full', method: 'cash' },
    });
    expect(again.statusCode).toBe(201); // the replay writes nothing, so mails nothing
    const ms = await outbox(email);
    expect(ms.map((m) => m.template)).toEqual(['booking_created', 'payment_received', 'booking_confirmed']);
    expect(ms[1]!.subject).toBe(`[Autohaus] Zahlung eingegangen — ${b.reference}`);
    expect(ms[1]!.text).toContain(`Gezahlt: ${amount} USD`);
    expect(ms[1]!.text).toContain(link(b.reference));
    expect(ics(ms[1]!).event.UID).toBe(`${b.reference}@rent.example.test`);
    // each mail is about its booking (the row the write stored)
    const about = await rows<{ about: string }>(
      t.platform.db,
      sql`SELECT about FROM rova_mail_outbox WHERE to_address = ${email} ORDER BY id`,
    );
    expect(about.map((a) => a.about)).toEqual(Array(3).fill(`booking:${b.id}`));
  });

  it("a customer's own booking (different return place): booking_created with both places and the .ics", async () => {
    const email = 'erika.online@example.test';
    const r = await t.inject({
      method: 'POST',
      url: `${V2}/booking/create`,
      headers: { 'x-rova-api-key': admin },
      payload: {
        vehicle_id: car,
        pickup_date: '2034-09-01',
        return_date: '2034-09-03',
        pickup_location_id: airport,
        return_location_id: station,
        payment_method: 'offline',
        payment_plan: 'full',
        customer: { name: 'Erika Online', email },
      },
    });
    expect(r.statusCode, r.body).toBe(201);
    const b = r.json().data.booking as { reference: string };
    const [m] = await outbox(email);
    expect(m!.template).toBe('booking_created');
    expect(m!.text).toContain('Abholort: Flughafen BER, Willy-Brandt-Platz 1, Berlin');
    expect(m!.text).toContain('Rückgabeort: Hauptbahnhof, Europaplatz 1, Berlin');
    const c = ics(m!);
    expect(c.event.UID).toBe(`${b.reference}@rent.example.test`);
    expect(c.event.DESCRIPTION).toContain('Rückgabeort: Hauptbahnhof, Europaplatz 1, Berlin');
    expect(icsInstant(c.event.DTSTART!).toISOString()).toBe('2034-09-01T08:00:00.000Z');
  });

  it("a signed-in customer's second booking, written by the one statement: its booking_created row keeps the .ics too", async () => {
    const at = bookingsAtOnceOf(t.platform);
    const viaStatement: string[] = [];
    const book = at.book.bind(at);
    at.book = (item) => {
      viaStatement.push(item.columns.reference);
      return book(item);
    };
    const cust = await t.userWithKey('customer', ['read', 'write'], 'erika-twice');
    const refs: string[] = [];
    for (const day of ['2034-10-01', '2034-10-10']) {
      const r = await t.inject({
        method: 'POST',
        url: `${V2}/booking/create`,
        headers: { 'x-rova-api-key': cust.key },
        payload: {
          vehicle_id: car,
          pickup_date: day,
          return_date: `${day.slice(0, 8)}${String(Number(day.slice(8)) + 2).padStart(2, '0')}`,
          payment_method: 'offline',
          payment_plan: 'full',
        },
      });
      expect(r.statusCode, r.body).toBe(201);
      refs.push(r.json().data.booking.reference as string);
    }
    at.book = book;
    expect(viaStatement).toEqual([refs[1]]); // the first made the customer record: its own transaction
    const ms = await outbox('erika-twice@example.test');
    expect(ms.map((m) => m.template)).toEqual(['booking_created', 'booking_created']);
    expect(ms.map((m) => ics(m).event.UID)).toEqual(refs.map((r) => `${r}@rent.example.test`));
    expect(ms[1]!.text).toContain(`Ihre Buchung ansehen: ${link(refs[1]!)}`);
  });

  it("the operator's reply to a customer's message: message_reply to the customer with the reply and the account link", async () => {
    const cust = await t.userWithKey('customer', ['read', 'write'], 'erika-writes');
    const started = await t.inject({
      method: 'POST',
      url: `${V1}/my/messages`,
      headers: { 'x-rova-api-key': cust.key },
      payload: { subject: 'Kindersitz?', message: 'Haben Sie einen Kindersitz?' },
    });
    expect(started.statusCode, started.body).toBe(201);
    const threadId = started.json().data.thread.id as number;
    const email = (
      await rows<{ email: string }>(t.platform.db, sql`SELECT email FROM rova_users WHERE id = ${cust.userId}`)
    )[0]!.email;
    expect(await outbox(email)).toEqual([]); // the customer's own message mails them nothing
    const reply = await t.inject({
      method: 'POST',
      url: `${V1}/messages/${threadId}/reply`,
      headers: { 'x-rova-api-key': admin },
      payload: { message: 'Ja, gern.\n\nWir legen ihn bereit.' },
    });
    expect(reply.statusCode, reply.body).toBe(201);
    const [m, ...more] = await outbox(email);
    expect(more).toEqual([]);
    expect(m).toMatchObject({ to: email, template: 'message_reply', attachments: [] });
    expect(m!.subject).toBe('[Autohaus] Neue Antwort auf Ihre Nachricht — Kindersitz?');
    expect(m!.text).toContain('Wir haben auf Ihre Nachricht geantwortet:');
    expect(m!.text).toContain('Ja, gern.\n\nWir legen ihn bereit.');
    expect(m!.text).toContain(`Ihre Nachrichten öffnen: ${ACCOUNT}`);
    const sent = await smtp.waitFor((x) => x.to.includes(email));
    expect(sent.subject).toContain('Kindersitz?');
  });
});

/** The base64 body of the text/calendar part of a raw MIME message, decoded. */
function attachedIcs(raw: string): string {
  const part =
    /Content-Type: text\/calendar[^\r\n]*(?:\r\n[ \t][^\r\n]*)*\r\n((?:[^\r\n]+\r\n)*)\r\n([\s\S]*?)\r\n--/i.exec(raw);
  if (!part) throw new Error('no text/calendar part');
  expect(part[1]).toMatch(/Content-Transfer-Encoding: base64/i);
  return Buffer.from(part[2]!.replace(/\s+/g, ''), 'base64').toString('utf8');
}
