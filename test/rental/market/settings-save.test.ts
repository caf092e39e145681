import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { marketplaceSettings, saveMarketplaceSettings } from '../../../src/modules/rental/ledger/settings.js';
import { makeApp, type TestApp } from '../../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeApp();
});
afterAll(async () => t?.close());

describe('saving the marketplace settings', () => {
  it('merges into what is stored, not into a node’s cached copy: another node’s change not yet announced is kept', async () => {
    await saveMarketplaceSettings(t.platform, { commission_rate: 15, hold_days: 7 });
    expect((await marketplaceSettings(t.platform)).hold_days).toBe(7); // now cached on this node
    // another node saved hold_days = 3; its invalidation has not reached this node yet
    await t.platform.db.execute(
      sql`UPDATE rova_options SET value = jsonb_set(value, '{hold_days}', '3') WHERE name = 'marketplace_settings'`,
    );
    expect((await marketplaceSettings(t.platform)).hold_days).toBe(7);
    const saved = await saveMarketplaceSettings(t.platform, { commission_rate: 12 });
    expect(saved).toMatchObject({ commission_rate: 12, hold_days: 3 });
    // and this node's cache follows the save
    expect(await marketplaceSettings(t.platform)).toMatchObject({ commission_rate: 12, hold_days: 3 });
  });
});
