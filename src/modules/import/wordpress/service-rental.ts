import { DEFAULT_STORE_CURRENCY, readStoreCurrency } from '../../../platform/store-currency.js';
import { isOverlapViolation } from '../../rental/index.js';
import { fromMinor } from '../../rental/index.js';
import { LedgerKeyReused, postLedgerTransaction } from '../../rental/index.js';
import { decryptIban, encryptIban } from '../../rental/index.js';
import type { Step, StepContext } from './context.js';
import { balancesBeforeAndAfterJobs, linkedMovement } from './ledger-links.js';
import { mapBookings, mapMessages, type AddonInfo } from './map-bookings.js';
import { mapPricing } from './map-pricing.js';
import { mapLocations, mapRoutes, mapVehicles } from './map-rental.js';
import { mapVendorReports, mapVendors, originalBalances, planLedgerRow } from './map-vendors.js';
import * as repo from './repo.js';
import * as rrepo from './repo-rental.js';
import { Notes, subject, type Entity } from './report.js';
import { importRows, RefusedValue, skip } from './rows.js';
import { versionBefore } from './site.js';
import type { SqlRow } from './source.js';

/** The rental plugin's data, entity by entity (see service.ts for the order and the transactions). */

async function pluginTable(c: StepContext, names: string[]): Promise<SqlRow[] | null> {
  for (const n of names) {
    const r = await c.source.table(n);
    if (r) return r;
  }
  c.notes.warn({ id: names[0]! }, 'missing', `no ${c.source.prefix}${names[0]} table: nothing to import`);
  return null;
}

/**
 * The store's currency as the import leaves it (the currency step, run before, sets it to woocommerce_currency):
 * vehicles and bookings are recorded in it, as everything else the store holds.
 */
async function storeCurrency(c: StepContext): Promise<string> {
  const store = (await readStoreCurrency(c.tx)) ?? DEFAULT_STORE_CURRENCY;
  const wc = (await c.source.option('woocommerce_currency'))?.trim().toUpperCase() ?? '';
  if (/^[A-Z]{3}$/.test(wc) && wc !== store)
    c.notes.warn(
      { id: 'woocommerce_currency' },
      'setting',
      `the shop's currency is ${wc} but the store's is ${store}: amounts are recorded in ${store} (import the currency entity first)`,
    );
  return store;
}

/** The WordPress user ids of vendors (role rentiva_vendor or the vendor status meta). */
async function vendorIds(c: StepContext): Promise<Set<number>> {
  return new Set(mapVendors(await c.cache.users(), c.source.prefix, null, new Notes()).map((v) => v.wpUserId));
}

const mapped = (c: StepContext, table: string, id: number | string | null | undefined) =>
  id === null || id === undefined || id === 0 || id === ''
    ? Promise.resolve(undefined)
    : repo.mappedId(c.tx, table, id);

export const rentalSteps: Partial<Record<Entity, Step>> = {
  async locations(c) {
    const list = await pluginTable(c, ['rentiva_transfer_locations', 'mhm_rentiva_transfer_locations']);
    if (!list) return;
    const rows = mapLocations(list, c.notes);
    c.rep.read = list.length;
    await importRows(
      c,
      rows,
      (l) => l.id,
      async (l, tx) => {
        const claim = await repo.claimId(tx, 'rental_locations', 'rentiva_transfer_locations', l.id, true);
        if ('conflict' in claim) return skip(c, l.id, 'conflict', claim.conflict);
        if (await repo.heldByOther(tx, 'rental_locations', 'slug', l.slug, l.id)) l.slug = `${l.slug}-${l.id}`;
        await rrepo.upsertLocation(tx, l);
        await repo.remember(tx, 'rentiva_transfer_locations', l.id, l.id);
        return claim.existed ? 'updated' : 'created';
      },
    );
    await repo.bumpSequence(c.tx, 'rental_locations');
  },

  async routes(c) {
    const list = await pluginTable(c, ['rentiva_transfer_routes', 'mhm_rentiva_transfer_routes']);
    if (!list) return;
    const names = new Map<number, string>();
    for (const r of list) {
      for (const id of [Number(r.origin_id), Number(r.destination_id)]) {
        if ((await mapped(c, 'rentiva_transfer_locations', id)) !== undefined)
          names.set(id, (await rrepo.locationName(c.tx, id)) ?? '');
      }
    }
    const rows = mapRoutes(list, names, c.notes);
    c.rep.read = list.length;
    await importRows(
      c,
      rows,
      (r) => r.id,
      async (r, tx) => {
        const claim = await repo.claimId(tx, 'rental_transfer_routes', 'rentiva_transfer_routes', r.id, true);
        if ('conflict' in claim) return skip(c, r.id, 'conflict', claim.conflict);
        await rrepo.upsertRoute(tx, r);
        await repo.remember(tx, 'rentiva_transfer_routes', r.id, r.id);
        return claim.existed ? 'updated' : 'created';
      },
    );
    await repo.bumpSequence(c.tx, 'rental_transfer_routes');
  },

  async pricing(c) {
    const names = [
      'mhm_rentiva_vehicle_weekend_multiplier',
      'mhm_rentiva_vehicle_tax_rate',
      'mhm_rentiva_vehicle_tax_inclusive',
      'mhm_rentiva_vehicle_seasonal_pricing',
      'mhm_rentiva_commission_tiers',
      'mhm_min_payout_amount',
      'mhm_rentiva_global_payout_freeze',
    ];
    const values = new Map<string, string | null>();
    for (const n of names) values.set(n, await c.source.option(n));
    const m = mapPricing((n) => values.get(n) ?? null, await c.source.table('mhm_rentiva_commission_policy'), c.notes);
    c.rep.read = m.rules.length + Object.keys(m.marketplace).length;
    await importRows(
      c,
      m.rules,
      (r) => r.key,
      async (r, tx) => {
        let id = await repo.mappedId(tx, 'options', r.key);
        const existed = id !== undefined;
        if (id === undefined) {
          const claim = await repo.claimId(tx, 'rental_pricing_rules', 'options', 0, false);
          if ('conflict' in claim) return skip(c, r.key, 'conflict', claim.conflict);
          id = claim.id;
        }
        await rrepo.upsertPricingRule(tx, id, r);
        await repo.remember(tx, 'options', r.key, id);
        return existed ? 'updated' : 'created';
      },
    );
    await repo.bumpSequence(c.tx, 'rental_pricing_rules');
    if (Object.keys(m.marketplace).length) {
      const current = await rrepo.marketplaceOption(c.tx);
      await repo.setOption(c.tx, 'marketplace_settings', { ...current, ...m.marketplace });
      c.rep.updated += Object.keys(m.marketplace).length;
    }
  },

  async vehicles(c) {
    const posts = await c.cache.posts('vehicle');
    const terms = await c.source.terms(['vehicle_category']);
    const links = await c.source.termLinks(['vehicle_category']);
    const slugOf = new Map(terms.map((t) => [t.termId, t.slug]));
    const categories = new Map<number, string>();
    for (const [obj, ids] of links) if (slugOf.has(ids[0]!)) categories.set(obj, slugOf.get(ids[0]!)!);
    const rows = mapVehicles(posts, categories, c.notes);
    const vendors = await vendorIds(c);
    const currency = await storeCurrency(c);
    c.rep.read = posts.length;
    await importRows(
      c,
      rows,
      (v) => v.id,
      async (v, tx) => {
        const claim = await repo.claimId(tx, 'rental_vehicles', 'posts:vehicle', v.id, true);
        if ('conflict' in claim) return skip(c, v.id, 'conflict', claim.conflict);
        const vendorId = vendors.has(v.authorId) ? ((await mapped(c, 'users', v.authorId)) ?? null) : null;
        if (vendors.has(v.authorId) && vendorId === null)
          c.notes.warn(
            subject('vehicle', v.id),
            'unlinked',
            `its vendor (user ${v.authorId}) is not imported; imported as an operator vehicle`,
          );
        const locationId = (await mapped(c, 'rentiva_transfer_locations', v.locationId)) ?? null;
        if (v.locationId !== null && locationId === null)
          c.notes.warn(
            subject('vehicle', v.id),
            'unlinked',
            `location ${v.locationId} is not imported; left without a location`,
          );
        if (await repo.heldByOther(tx, 'rental_vehicles', 'slug', v.slug, v.id)) v.slug = `${v.slug}-${v.id}`;
        await rrepo.upsertVehicle(tx, v, vendorId, locationId, currency);
        if (vendorId !== null) await rrepo.upsertListing(tx, v.id, vendorId, v);
        await repo.remember(tx, 'posts:vehicle', v.id, v.id);
        return claim.existed ? 'updated' : 'created';
      },
    );
    await repo.bumpSequence(c.tx, 'rental_vehicles');
  },

  async vendors(c) {
    const users = await c.cache.users();
    const rows = mapVendors(users, c.source.prefix, c.opts.wpKeys ?? null, c.notes, await c.cache.zone(new Notes()));
    c.rep.read = rows.length;
    await importRows(
      c,
      rows,
      (v) => v.wpUserId,
      async (v, tx) => {
        const userId = await mapped(c, 'users', v.wpUserId);
        if (userId === undefined) return skip(c, v.wpUserId, 'unlinked', 'the vendor user is not imported');
        // the IBAN sealed on an earlier run stays as it is when it holds the same IBAN (sealing draws a new IV)
        let sealed: string | null = null;
        if (v.iban !== null) {
          const before = await rrepo.vendorIbanOf(tx, userId);
          let same = false;
          try {
            same = before !== null && decryptIban(c.target.secret, before) === v.iban;
          } catch {
            same = false;
          }
          sealed = same ? before : encryptIban(c.target.secret, v.iban);
        } else sealed = await rrepo.vendorIbanOf(tx, userId);
        return (await rrepo.upsertVendor(tx, userId, v, sealed)) ? 'updated' : 'created';
      },
    );
  },

  async bookings(c) {
    const [posts, addonPosts, users] = await Promise.all([
      c.cache.posts('vehicle_booking'),
      c.cache.posts('vehicle_addon'),
      c.cache.userRows(),
    ]);
    const plugin = await c.cache.plugin();
    // before 4.36 the plugin charged every add-on per day (it stored only addon_price); a site that stored no version is
    // read by what its add-ons hold: a stored pricing type exists only from 4.36 on, and a missing one means per day
    const addonsAlwaysPerDay = plugin.version !== null && versionBefore(plugin.version, '4.36');
    const addons = new Map<number, AddonInfo>(
      addonPosts.map((a) => [
        a.id,
        {
          id: a.id,
          title: a.title,
          price: a.meta.get('addon_price') ?? a.meta.get('_mhm_addon_price') ?? '0',
          pricing: a.meta.get('_mhm_addon_pricing_type') ?? a.meta.get('addon_pricing_type') ?? 'per_day',
        },
      ]),
    );
    const rows = mapBookings(posts, addons, c.notes, { zone: await c.cache.zone(new Notes()), addonsAlwaysPerDay });
    const currency = await storeCurrency(c);
    const userByEmail = new Map(users.map((u) => [u.email, u.wpId]));
    c.rep.read = posts.length;
    await importRows(
      c,
      rows,
      (b) => b.id,
      async (b, tx) => {
        const claim = await repo.claimId(tx, 'rental_bookings', 'posts:vehicle_booking', b.id, true);
        if ('conflict' in claim) return skip(c, b.id, 'conflict', claim.conflict);
        const vehicleId = await mapped(c, 'posts:vehicle', b.vehicleId);
        if (vehicleId === undefined) return skip(c, b.id, 'unlinked', `its vehicle ${b.vehicleId} is not imported`);
        const wpUser = b.wpUserId ?? userByEmail.get(b.customerEmail) ?? null;
        const customerId =
          (wpUser !== null ? await mapped(c, 'customers', `user:${wpUser}`) : undefined) ??
          (await mapped(c, 'customers', `email:${b.customerEmail}`)) ??
          null;
        const userId = wpUser !== null ? ((await mapped(c, 'users', wpUser)) ?? null) : null;
        let routeId: number | null = null;
        let origin: string | null = null;
        let destination: string | null = null;
        if (b.kind === 'transfer' && b.transferOriginId && b.transferDestinationId) {
          routeId = await rrepo.routeBetween(tx, b.transferOriginId, b.transferDestinationId);
          origin = await rrepo.locationName(tx, b.transferOriginId);
          destination = await rrepo.locationName(tx, b.transferDestinationId);
        }
        const pickupLocationId = (await mapped(c, 'rentiva_transfer_locations', b.pickupLocationId)) ?? null;
        const vehicle = (await c.cache.posts('vehicle')).find((p) => p.id === b.vehicleId);
        const pricePerDay = vehicle?.meta.get('_mhm_rentiva_price_per_day')?.trim() || '0';
        try {
          await tx.transaction(async (sp) => {
            await rrepo.upsertBooking(sp, b, {
              customerId,
              routeId,
              origin,
              destination,
              pickupLocationId,
              pricePerDay: /^\d+(\.\d+)?$/.test(pricePerDay) ? pricePerDay : '0',
              currency,
            });
            await rrepo.putOrder(sp, b.id, userId, b, currency, b.lines, b.payment);
          });
        } catch (err) {
          if (!isOverlapViolation(err)) throw err;
          return skip(
            c,
            b.id,
            'conflict',
            `overlaps another holding booking of vehicle ${b.vehicleId} (Rova refuses double bookings)`,
          );
        }
        await repo.remember(tx, 'posts:vehicle_booking', b.id, b.id);
        return claim.existed ? 'updated' : 'created';
      },
    );
    await repo.bumpSequence(c.tx, 'rental_bookings');
  },

  async messages(c) {
    const posts = await c.cache.posts('mhm_message');
    const rows = mapMessages(posts, c.notes);
    const users = await c.cache.userRows();
    const userByEmail = new Map(users.map((u) => [u.email, u.wpId]));
    c.rep.read = posts.length;
    await importRows(
      c,
      rows,
      (m) => m.id,
      async (m, tx) => {
        const claim = await repo.claimId(tx, 'rental_messages', 'posts:mhm_message', m.id, true);
        if ('conflict' in claim) return skip(c, m.id, 'conflict', claim.conflict);
        const wpUser = userByEmail.get(m.customerEmail);
        const customerId =
          (wpUser !== undefined ? await mapped(c, 'customers', `user:${wpUser}`) : undefined) ??
          (await mapped(c, 'customers', `email:${m.customerEmail}`)) ??
          null;
        const authorId = (await mapped(c, 'users', m.authorWpId)) ?? null;
        const bookingId = (await mapped(c, 'posts:vehicle_booking', m.bookingId)) ?? null;
        if (m.bookingId !== null && bookingId === null)
          c.notes.warn(subject('message', m.id), 'unlinked', `booking ${m.bookingId} is not imported; no booking link`);
        await rrepo.upsertMessage(tx, m, { customerId, authorId, bookingId });
        await repo.remember(tx, 'posts:mhm_message', m.id, m.id);
        return claim.existed ? 'updated' : 'created';
      },
    );
    await repo.bumpSequence(c.tx, 'rental_messages');
  },

  async ledger(c) {
    const list = await pluginTable(c, ['mhm_rentiva_ledger']);
    if (!list) return;
    c.rep.read = list.length;
    const vendors = new Map<number, number>();
    const startedAt = new Date().toISOString();
    // refunds after the credits they refund (they are linked to them when written)
    const ordered = [
      ...list.filter((r) => String(r.type) !== 'commission_refund'),
      ...list.filter((r) => String(r.type) === 'commission_refund'),
    ];
    await importRows(
      c,
      ordered,
      (r) => String(r.transaction_uuid ?? r.id),
      async (r, tx) => {
        const id = String(r.transaction_uuid ?? r.id);
        const wpVendor = Number(r.vendor_id);
        const vendorId = await mapped(c, 'users', wpVendor);
        if (vendorId === undefined) return skip(c, id, 'unlinked', `vendor ${wpVendor} is not imported`);
        vendors.set(wpVendor, vendorId);
        const plans = planLedgerRow(r, c.notes);
        if (!plans.length) return null; // planLedgerRow noted why
        let anyNew = false;
        for (const p of plans) {
          const movement = await linkedMovement(tx, p, vendorId, startedAt);
          // thrown, not returned: what this row posted before is undone with it (a row is booked whole or not at all)
          if ('unlinked' in movement) throw new RefusedValue('unlinked', movement.unlinked);
          try {
            const posted = await postLedgerTransaction(tx, movement);
            if (!posted.replayed) anyNew = true;
          } catch (err) {
            // the key exists with other lines: the WordPress row changed after it was imported (nothing was written)
            if (!(err instanceof LedgerKeyReused)) throw err;
            throw new RefusedValue(
              'changed',
              'changed in WordPress since it was imported; the ledger is append-only: post a correction in Rova',
            );
          }
        }
        return anyNew ? 'created' : 'updated';
      },
    );
    // compared as the vendor will see them once Rova runs: after a (rolled back) pass of the scheduled jobs too
    const { before, after } = await balancesBeforeAndAfterJobs(c.tx, [...vendors.values()]);
    for (const [wpVendor, vendorId] of vendors) {
      const byCurrency = originalBalances(list.filter((r) => Number(r.vendor_id) === wpVendor));
      if (byCurrency.size > 1)
        c.notes.warn(
          subject('vendor', wpVendor),
          'balance',
          `ledger rows in several currencies (${[...byCurrency.keys()].join(', ')}); Rova keeps one balance per vendor account`,
        );
      for (const [currency, orig] of byCurrency) {
        const now = before.get(vendorId)!;
        const later = after.get(vendorId)!;
        const text = (n: number) => fromMinor(n, currency).toFixed(2);
        const check = {
          vendorId,
          currency,
          original: { available: text(orig.available), pending: text(orig.pending) },
          rova: { available: text(later.available), pending: text(later.pending) },
          matches:
            orig.available === now.available &&
            orig.pending === now.pending &&
            now.available === later.available &&
            now.pending === later.pending,
        };
        c.ledger.push(check);
        if (now.available !== later.available || now.pending !== later.pending) {
          c.notes.warn(
            subject('vendor', wpVendor),
            'balance',
            `the scheduled jobs would change its balances (available ${text(now.available)} → ${text(later.available)}, pending ${text(now.pending)} → ${text(later.pending)})`,
          );
        }
        if (orig.available !== now.available || orig.pending !== now.pending)
          c.notes.warn(
            subject('vendor', wpVendor),
            'balance',
            `balances differ from the original (available ${check.original.available} → ${text(now.available)}, pending ${check.original.pending} → ${text(now.pending)})`,
          );
      }
    }
  },

  async vendor_reports(c) {
    const list = await pluginTable(c, ['mhm_rentiva_vendor_reports']);
    if (!list) return;
    const rows = mapVendorReports(list, c.notes);
    c.rep.read = list.length;
    const maxId = Math.max(0, ...rows.map((r) => r.id));
    await importRows(
      c,
      rows,
      (r) => r.id,
      async (r, tx) => {
        const vendorId = await mapped(c, 'users', r.wpVendorId);
        if (vendorId === undefined) return skip(c, r.id, 'unlinked', `vendor ${r.wpVendorId} is not imported`);
        let contextId: number | null = null;
        if (r.contextType === 'booking') contextId = (await mapped(c, 'posts:vehicle_booking', r.contextId)) ?? null;
        else if (r.contextType === 'vehicle' || r.contextType === 'vehicle_action')
          contextId = (await mapped(c, 'posts:vehicle', r.contextId)) ?? null;
        else if (r.contextType === 'penalty')
          contextId = r.contextId ? await rrepo.ledgerTxIdByKey(tx, `wordpress:ledger:${r.contextId}`) : null;
        if (r.contextType !== 'general' && contextId === null)
          return skip(c, r.id, 'unlinked', `its ${r.contextType} ${r.contextId ?? ''} is not imported`);
        const claim = await repo.claimId(tx, 'vendor_reports', 'mhm_rentiva_vendor_reports', r.id, false, maxId);
        if ('conflict' in claim) return skip(c, r.id, 'conflict', claim.conflict);
        if (
          (r.status === 'open' || r.status === 'in_review') &&
          (await rrepo.openReportHeld(tx, claim.id, vendorId, r.contextType, contextId))
        ) {
          return skip(
            c,
            r.id,
            'conflict',
            'another open report of this vendor on the same subject exists (Rova allows one)',
          );
        }
        const adminId = (await mapped(c, 'users', r.adminWpId)) ?? null;
        await rrepo.upsertVendorReport(tx, claim.id, r, vendorId, contextId, adminId);
        await repo.remember(tx, 'mhm_rentiva_vendor_reports', r.id, claim.id);
        return claim.existed ? 'updated' : 'created';
      },
    );
    await repo.bumpSequence(c.tx, 'vendor_reports');
  },
};
