import type { Platform } from '../../platform/context.js';
import { catalogueView } from '../store/index.js';
import { isPublicRecord } from '../store/index.js';
import { loadAll } from '../store/index.js';
import { CATALOGUE_TOPIC } from '../store/index.js';
import type { ProductRecord } from '../store/index.js';

export interface DemoItem {
  id: number;
  name: string;
  slug: string;
  shortDescription: string;
  description: string;
  image: { src: string; alt: string } | null;
  /** Shown in the shop listing (catalog visibility visible or catalog); every public product has its own page. */
  listed: boolean;
  /** Base-currency price HTML ("" when the product has no price). */
  priceHtml: string;
  variations: { id: number; name: string; priceHtml: string }[];
}

function variationName(v: ProductRecord): string {
  const opts = v.attributes.map((a) => a.option).filter((o): o is string => typeof o === 'string' && o !== '');
  return opts.length > 0 ? opts.join(', ') : v.name || `#${v.id}`;
}

const loaded = new WeakMap<Platform, { records: Promise<ProductRecord[]> | null }>();

/** All product records, read once per catalogue change (every write publishes CATALOGUE_TOPIC on the bus). */
function catalogueRecords(platform: Platform): Promise<ProductRecord[]> {
  let c = loaded.get(platform);
  if (!c) {
    const entry: { records: Promise<ProductRecord[]> | null } = { records: null };
    platform.bus.subscribe(CATALOGUE_TOPIC, () => {
      entry.records = null;
    });
    loaded.set(platform, entry);
    c = entry;
  }
  const entry = c;
  entry.records ??= loadAll(platform.db).catch((err: unknown) => {
    entry.records = null;
    throw err;
  });
  return entry.records;
}

/** The public catalogue in the base currency, in shop order, with the store's price HTML. */
export async function demoCatalogue(platform: Platform): Promise<DemoItem[]> {
  const view = catalogueView(platform);
  const [records] = await Promise.all([catalogueRecords(platform), view.load()]);
  const byId = new Map(records.map((r) => [r.id, r]));
  const items: DemoItem[] = [];
  for (const r of records) {
    if (r.type === 'variation' || !isPublicRecord(r, null)) continue;
    const variations = records
      .filter((v) => v.parentId === r.id && isPublicRecord(v, byId.get(r.id)))
      .sort((a, b) => a.menuOrder - b.menuOrder || a.id - b.id)
      .map((v) => ({ id: v.id, name: variationName(v), priceHtml: view.priceHtml(v.id, null) ?? '' }));
    const img = r.images[0];
    items.push({
      id: r.id,
      name: r.name,
      slug: r.slug,
      shortDescription: r.shortDescription,
      description: r.description,
      image: img ? { src: img.src, alt: img.alt || r.name } : null,
      listed: r.catalogVisibility === 'visible' || r.catalogVisibility === 'catalog',
      priceHtml: view.priceHtml(r.id, null) ?? '',
      variations,
    });
  }
  const shown = (i: DemoItem): number => byId.get(i.id)?.menuOrder ?? 0;
  return items.sort((a, b) => shown(a) - shown(b) || a.id - b.id);
}
