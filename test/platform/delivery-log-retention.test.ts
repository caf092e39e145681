import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { rows } from '../../src/platform/db/types.js';
import { pruneDeliveryLogs } from '../../src/platform/retention/delivery-logs.js';
import { makeApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeApp();
});
afterAll(async () => t?.close());

const NOW = new Date('2031-01-01T00:00:00Z');
const daysAgo = (d: number) => new Date(NOW.getTime() - d * 86_400_000).toISOString();

async function mail(status: string, age: number): Promise<string> {
  const subject = `${status} ${age} days`;
  await t.platform.db
    .execute(sql`INSERT INTO rova_mail_outbox (to_address, subject, text_body, html_body, template, status, created_at)
    VALUES ('a@example.test', ${subject}, 'x', 'x', 'test', ${status}, ${daysAgo(age)}::timestamptz)`);
  return subject;
}

describe('delivery-log retention (MAIL_OUTBOX_RETENTION_DAYS, WEBHOOK_DELIVERY_RETENTION_DAYS)', () => {
  it('drops settled mails and webhook deliveries past their days; what still waits to go stays, whatever its age', async () => {
    const kept = [
      await mail('sent', 10),
      await mail('stored', 29),
      await mail('pending', 400),
      await mail('sending', 400),
    ];
    const dropped = [await mail('sent', 31), await mail('stored', 60), await mail('failed', 31)];
    const [endpoint] = await rows<{ id: number }>(
      t.platform.db,
      sql`INSERT INTO rova_webhook_endpoints (url, description, events, secret_enc, enabled)
        VALUES ('https://hooks.example.test/rova', 'retention test', '{}', 'x', true) RETURNING id::int AS id`,
    );
    const delivery = async (status: string, age: number): Promise<string> => {
      const eventId = `evt_retention_${status}_${age}`;
      await t.platform.db.execute(
        sql`INSERT INTO rova_events (event_id, type, payload) VALUES (${eventId}, 'booking.created', '{}'::jsonb)`,
      );
      await t.platform.db
        .execute(sql`INSERT INTO rova_webhook_deliveries (endpoint_id, event_id, event_type, status, created_at)
        VALUES (${endpoint!.id}, ${eventId}, 'booking.created', ${status}, ${daysAgo(age)}::timestamptz)`);
      return eventId;
    };
    const keptDeliveries = [await delivery('delivered', 5), await delivery('pending', 100)];
    const droppedDeliveries = [await delivery('delivered', 8), await delivery('failed', 20)];

    const r = await pruneDeliveryLogs(t.platform.db, { mailDays: 30, webhookDays: 7 }, NOW);
    expect(r).toEqual({ mails: dropped.length, deliveries: droppedDeliveries.length });
    const subjects = (
      await rows<{ subject: string }>(t.platform.db, sql`SELECT subject FROM rova_mail_outbox WHERE template = 'test'`)
    ).map((m) => m.subject);
    expect(subjects.sort()).toEqual([...kept].sort());
    const events = (
      await rows<{ event_id: string }>(
        t.platform.db,
        sql`SELECT event_id FROM rova_webhook_deliveries WHERE endpoint_id = ${endpoint!.id}`,
      )
    ).map((d) => d.event_id);
    expect(events.sort()).toEqual([...keptDeliveries].sort());
    // 0 keeps everything
    expect(await pruneDeliveryLogs(t.platform.db, { mailDays: 0, webhookDays: 0 }, new Date('2099-01-01'))).toEqual({
      mails: 0,
      deliveries: 0,
    });
  });

  it('the settings: 365 and 90 days by default, 0 keeps for good, anything else but whole days is refused', () => {
    const c = loadConfig({}, { ephemeral: true });
    expect([c.mailOutboxRetentionDays, c.webhookDeliveryRetentionDays]).toEqual([365, 90]);
    const z = loadConfig(
      { MAIL_OUTBOX_RETENTION_DAYS: '0', WEBHOOK_DELIVERY_RETENTION_DAYS: '14' },
      { ephemeral: true },
    );
    expect([z.mailOutboxRetentionDays, z.webhookDeliveryRetentionDays]).toEqual([0, 14]);
    expect(() => loadConfig({ MAIL_OUTBOX_RETENTION_DAYS: '1.5' }, { ephemeral: true })).toThrow(ConfigError);
    expect(() => loadConfig({ WEBHOOK_DELIVERY_RETENTION_DAYS: '-1' }, { ephemeral: true })).toThrow(
      'WEBHOOK_DELIVERY_RETENTION_DAYS must be an integer 0-36500 (got "-1")',
    );
  });
});
