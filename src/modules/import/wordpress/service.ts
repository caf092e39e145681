import { isCurrencyCode } from '../../../config.js';
import type { Db } from '../../../platform/db/types.js';
import { OPT_BASE, OPT_PRICE_FORMAT, OPT_SETTINGS } from '../../fx/index.js';
import { SourceCache, type ImportOptions, type ImportTarget, type Step, type StepContext } from './context.js';
import { mapCurrency, mapPriceFormat } from './map-currency.js';
import { countNotImported } from './not-imported.js';
import { mapProducts, mapTerms } from './map-products.js';
import { mapCustomers, mapUsers } from './map-users.js';
import * as repo from './repo.js';
import {
  ENTITIES,
  Notes,
  skippedOf,
  subject,
  valuesOf,
  warningsOf,
  type Entity,
  type EntityReport,
  type ImportReport,
} from './report.js';
import type { WpSource, WpTerm } from './source.js';
import { importRows, skip } from './rows.js';
import { shown } from './values.js';
import { rentalSteps } from './service-rental.js';

export type { ImportOptions, ImportTarget } from './context.js';

class DryRunRollback extends Error {}

/** The store's time zone when STORE_TIMEZONE is not set (read at start, see app.ts). */
export const OPT_TIMEZONE = 'store_timezone';

const catalogueSteps: Partial<Record<Entity, Step>> = {
  /** The site's time zone and the shop's price format become the store's. */
  async settings(c) {
    const zone = await c.cache.zone(c.notes);
    c.rep.read = 2;
    if (zone.zone !== null) {
      await repo.setOption(c.tx, OPT_TIMEZONE, zone.zone);
      c.rep.updated++;
    } else
      c.notes.warn(
        { id: 'gmt_offset', key: 'gmt_offset' },
        'setting',
        `the site's time zone ${zone.label} has no IANA name; set STORE_TIMEZONE (site-local times were read at ${zone.label})`,
      );
    const [position, decimalSep, thousandSep, decimals] = await Promise.all(
      [
        'woocommerce_currency_pos',
        'woocommerce_price_decimal_sep',
        'woocommerce_price_thousand_sep',
        'woocommerce_price_num_decimals',
      ].map((n) => c.source.option(n)),
    );
    const format = mapPriceFormat(
      {
        position: position ?? null,
        decimalSep: decimalSep ?? null,
        thousandSep: thousandSep ?? null,
        decimals: decimals ?? null,
      },
      c.notes,
    );
    if (format) {
      await repo.setOption(c.tx, OPT_PRICE_FORMAT, format);
      c.rep.updated++;
    }
  },
  async attributes(c) {
    const list = await c.cache.attributes(c.notes);
    c.rep.read = list.length;
    await importRows(
      c,
      list,
      (a) => a.id,
      async (a, tx) => {
        const claim = await repo.claimId(tx, 'rova_product_attributes', 'woocommerce_attribute_taxonomies', a.id, true);
        if ('conflict' in claim) return skip(c, a.id, 'conflict', claim.conflict);
        if (await repo.heldByOther(tx, 'rova_product_attributes', 'slug', a.slug, a.id))
          return skip(c, a.id, 'conflict', `attribute slug pa_${a.slug} is already used in Rova`);
        await repo.upsertAttribute(tx, a);
        await repo.remember(tx, 'woocommerce_attribute_taxonomies', a.id, a.id);
        return claim.existed ? 'updated' : 'created';
      },
    );
    await repo.bumpSequence(c.tx, 'rova_product_attributes');
    // the attributes' terms come with them (counted in the same row of the report)
    await termsStep(c, 'attribute');
  },
  categories: (c) => termsStep(c, 'product_cat'),
  tags: (c) => termsStep(c, 'product_tag'),
  async products(c) {
    await productsStep(c, false);
  },
  async variations(c) {
    await productsStep(c, true);
  },
  async currency(c) {
    const [wc, settings, currencies] = await Promise.all([
      c.source.option('woocommerce_currency'),
      c.source.option('mhmcs_settings'),
      c.source.option('mhmcs_currencies'),
    ]);
    const m = mapCurrency({ wcCurrency: wc, settings, currencies }, c.notes);
    c.rep.read = (m.base ? 1 : 0) + (m.settings ? 1 : 0) + (m.rows?.length ?? 0);
    // the store's currency (what every module records amounts in) becomes the shop's; running nodes reload it
    // after the import (import cli: storeCurrency.changed())
    if (m.base && isCurrencyCode(m.base)) {
      await repo.setOption(c.tx, OPT_BASE, m.base);
      c.rep.updated++;
    } else
      c.notes.warn(
        { id: 'woocommerce_currency', key: 'woocommerce_currency' },
        m.base ? 'unreadable' : 'missing',
        m.base
          ? `woocommerce_currency ${m.base} is not an ISO 4217 code: the store currency stays as it is`
          : 'woocommerce_currency is not set: the store currency stays as it is',
      );
    if (m.settings) {
      await repo.setOption(c.tx, OPT_SETTINGS, m.settings);
      c.rep.updated++;
    }
    if (m.rows) {
      const rows = m.rows;
      const before = await repo.currencyCodes(c.tx);
      await repo.dropCurrenciesBut(
        c.tx,
        rows.map((r) => r.code),
      );
      await importRows(
        c,
        rows,
        (r) => r.code,
        async (r, tx) => {
          await repo.putCurrency(tx, r.code, rows.indexOf(r), r);
          return before.has(r.code) ? 'updated' : 'created';
        },
      );
    }
  },
};

async function termsStep(c: StepContext, taxonomy: 'product_cat' | 'product_tag' | 'attribute'): Promise<void> {
  const attrs = await c.cache.attributes(new Notes());
  const wanted = (t: WpTerm) => (taxonomy === 'attribute' ? t.taxonomy.startsWith('pa_') : t.taxonomy === taxonomy);
  const all = (await c.cache.catalogueTerms()).filter(wanted);
  const rows = mapTerms(all, attrs, c.notes);
  c.rep.read += all.length;
  const written = new Set<number>();
  await importRows(
    c,
    rows,
    (t) => t.id,
    async (t, tx) => {
      const claim = await repo.claimId(tx, 'rova_product_terms', 'terms', t.id, true);
      if ('conflict' in claim) return skip(c, t.id, 'conflict', claim.conflict);
      if (
        t.attributeId !== null &&
        (await repo.mappedId(tx, 'woocommerce_attribute_taxonomies', t.attributeId)) === undefined
      )
        return skip(c, t.id, 'unlinked', `its attribute ${t.attributeId} is not imported`);
      if (await repo.termSlugHeld(tx, t))
        return skip(c, t.id, 'conflict', `slug "${t.slug}" is already used in Rova by another term of ${t.taxonomy}`);
      await repo.upsertTerm(tx, t);
      await repo.remember(tx, 'terms', t.id, t.id);
      written.add(t.id);
      return claim.existed ? 'updated' : 'created';
    },
  );
  for (const t of rows)
    if (written.has(t.id))
      await repo.setTermParent(c.tx, t.id, t.parentId !== null && written.has(t.parentId) ? t.parentId : null);
  await repo.bumpSequence(c.tx, 'rova_product_terms');
}

async function productsStep(c: StepContext, variations: boolean): Promise<void> {
  const [products, vars, terms, attributes, attachmentPosts] = await Promise.all([
    c.cache.posts('product'),
    c.cache.posts('product_variation'),
    c.cache.catalogueTerms(),
    c.cache.attributes(new Notes()),
    c.cache.posts('attachment'),
  ]);
  const attachments = new Map(attachmentPosts.map((a) => [a.id, a]));
  const links = await c.source.termLinks([...new Set(terms.map((t) => t.taxonomy))]);
  // both passes map everything (a variation needs its parent's row); each reports and writes only its own records
  const mine = new Set((variations ? vars : products).map((p) => String(p.id)));
  const rowNotes = new Notes();
  const rows = mapProducts({ products, variations: vars, links, terms, attributes, attachments }, rowNotes);
  // each pass keeps the notes of its own records (a note about no record goes with the products)
  c.notes.take(rowNotes.list.filter((n) => (n.id === null ? !variations : mine.has(n.id))));
  const list = rows.filter((r) => (r.type === 'variation') === variations);
  c.rep.read = mine.size;
  await importRows(
    c,
    list,
    (p) => p.id,
    async (p, tx) => {
      const claim = await repo.claimId(
        tx,
        'rova_products',
        `posts:${variations ? 'product_variation' : 'product'}`,
        p.id,
        true,
      );
      if ('conflict' in claim) return skip(c, p.id, 'conflict', claim.conflict);
      if (p.parentId !== null && (await repo.mappedId(tx, 'posts:product', p.parentId)) === undefined)
        return skip(c, p.id, 'unlinked', `its parent product ${p.parentId} is not imported`);
      if (await repo.heldByOther(tx, 'rova_products', 'slug', p.slug, p.id)) {
        const slug = `${p.slug}-${p.id}`;
        c.notes.warn(
          { ...subject(variations ? 'variation' : 'product', p.id), key: 'post_name' },
          'conflict',
          `slug "${p.slug}" is taken in Rova, imported as "${slug}"`,
        );
        p.slug = slug;
      }
      if (p.sku && (await repo.heldByOther(tx, 'rova_products', 'sku', p.sku, p.id))) {
        c.notes.warn(
          { ...subject(variations ? 'variation' : 'product', p.id), key: '_sku' },
          'conflict',
          `SKU "${shown(p.sku)}" is already used in Rova, imported without a SKU`,
        );
        p.sku = '';
      }
      await repo.upsertProduct(tx, p);
      await repo.setProductTerms(tx, p.id, p.termIds);
      await repo.remember(tx, `posts:${variations ? 'product_variation' : 'product'}`, p.id, p.id);
      return claim.existed ? 'updated' : 'created';
    },
  );
  await repo.bumpSequence(c.tx, 'rova_products');
}

const peopleSteps: Partial<Record<Entity, Step>> = {
  async users(c) {
    const wp = await c.cache.users();
    const list = mapUsers(wp, c.source.prefix, c.notes);
    c.rep.read = wp.length;
    const maxId = Math.max(0, ...wp.map((u) => u.id));
    await importRows(
      c,
      list,
      (u) => u.wpId,
      async (u, tx) => {
        const claim = await repo.claimId(tx, 'rova_users', 'users', u.wpId, false, maxId);
        if ('conflict' in claim) return skip(c, u.wpId, 'conflict', claim.conflict);
        const other = await repo.userHolding(tx, u.login, u.email, claim.id);
        if (other)
          return skip(
            c,
            u.wpId,
            'conflict',
            `Rova user ${other.id} (${other.login}) already has this login or e-mail; left as it is`,
          );
        if (claim.id !== u.wpId)
          c.notes.warn(
            subject('user', u.wpId, u.login),
            'conflict',
            `id ${u.wpId} is taken in Rova, imported as user ${claim.id}`,
          );
        await repo.upsertUser(tx, { ...u, id: claim.id });
        await repo.remember(tx, 'users', u.wpId, claim.id);
        return claim.existed ? 'updated' : 'created';
      },
    );
    await repo.bumpSequence(c.tx, 'rova_users');
  },
  async customers(c) {
    const [wp, rows, bookings] = await Promise.all([
      c.cache.users(),
      c.cache.userRows(),
      c.cache.posts('vehicle_booking'),
    ]);
    const list = mapCustomers(rows, wp, bookings, c.notes);
    c.rep.read = list.length;
    const maxId = Math.max(0, ...wp.map((u) => u.id));
    await importRows(
      c,
      list,
      (cu) => cu.wpRef,
      async (cu, tx) => {
        const mapKey = cu.key;
        let id = await repo.mappedId(tx, 'customers', mapKey);
        const existed = id !== undefined;
        const userId = cu.wpUserId === null ? null : ((await repo.mappedId(tx, 'users', cu.wpUserId)) ?? null);
        if (cu.wpUserId !== null && userId === null)
          c.notes.warn(
            { id: cu.wpRef, record: `customer ${cu.wpRef}` },
            'unlinked',
            `WordPress user ${cu.wpUserId} is not imported; the customer has no account link`,
          );
        if (id === undefined) {
          const sameEmail = await repo.customerByEmail(tx, cu.email);
          if (sameEmail !== undefined)
            return skip(
              c,
              cu.wpRef,
              'conflict',
              `Rova customer ${sameEmail} already has this e-mail address; left as it is`,
            );
          const claim = await repo.claimId(tx, 'rental_customers', 'customers', cu.wpUserId ?? 0, false, maxId);
          if ('conflict' in claim) return skip(c, cu.wpRef, 'conflict', claim.conflict);
          id = claim.id;
        }
        await repo.upsertCustomer(tx, {
          id,
          name: cu.name,
          email: cu.email,
          phone: cu.phone,
          address: cu.address,
          userId,
          createdAt: cu.createdAt,
        });
        await repo.remember(tx, 'customers', mapKey, id);
        return existed ? 'updated' : 'created';
      },
    );
    await repo.bumpSequence(c.tx, 'rental_customers');
  },
};

const STEPS: Partial<Record<Entity, Step>> = { ...catalogueSteps, ...peopleSteps, ...rentalSteps };

/** `rova import wordpress`: every entity in its own transaction (an interrupted run resumes where it stopped). */
export async function importWordPress(
  target: ImportTarget,
  source: WpSource,
  opts: ImportOptions = {},
): Promise<ImportReport> {
  const only = new Set<Entity>(opts.only ?? ENTITIES);
  const report: ImportReport = { dryRun: opts.dryRun === true, site: null, notImported: [], entities: [], ledger: [] };
  const cache = new SourceCache(source);
  const [plugin, zone] = await Promise.all([cache.plugin(), cache.zone(new Notes())]);
  report.site = { pluginVersion: plugin.version, pluginGeneration: plugin.generation, timeZone: zone.label };
  const runAll = async (inTx: (f: (tx: Db) => Promise<void>) => Promise<void>) => {
    for (const entity of ENTITIES) {
      const step = STEPS[entity];
      if (!only.has(entity) || !step) continue;
      const notes = new Notes(entity);
      const rep: EntityReport = {
        entity,
        read: 0,
        created: 0,
        updated: 0,
        notes: notes.list,
        skipped: [],
        warnings: [],
        values: [],
      };
      await inTx(async (tx) => {
        rep.created = 0;
        rep.updated = 0;
        notes.clear();
        await step({
          tx,
          source,
          notes,
          rep,
          opts,
          target,
          cache,
          tick: (d, t) => opts.progress?.(entity, d, t),
          ledger: report.ledger,
        });
      });
      Object.assign(rep, {
        skipped: skippedOf(notes.list),
        warnings: warningsOf(notes.list),
        values: valuesOf(notes.list),
      });
      report.entities.push(rep);
    }
  };
  if (opts.dryRun) {
    try {
      await target.transaction(async (outer) => {
        await runAll((f) => outer.transaction(f));
        throw new DryRunRollback();
      });
    } catch (err) {
      if (!(err instanceof DryRunRollback)) throw err;
    }
  } else {
    await runAll((f) => target.transaction(f));
  }
  report.notImported = await countNotImported(source, cache);
  return report;
}
