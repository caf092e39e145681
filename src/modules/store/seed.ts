import { sql } from 'drizzle-orm';
import type { Platform } from '../../platform/context.js';
import { one, type Db } from '../../platform/db/types.js';
import * as repo from './repo.js';
import { CATALOGUE_TOPIC } from './service.js';
import * as taxRepo from './taxonomy/repo.js';
import { CATEGORIES, TAGS as TAGS_SCOPE } from './taxonomy/service.js';
import type { TermScope } from './taxonomy/types.js';
import type { ProductPatch } from './types.js';

/** Demo catalogue: rental add-ons, packages and gear, in the base currency. Idempotent by slug. */

/** Categories and tags by slug (term ids are looked up or created when seeding). */
type Seed = ProductPatch & {
  slug: string;
  name: string;
  categories?: string[];
  tags?: string[];
  variations?: (ProductPatch & { slug: string; name: string })[];
};

const DAY = 86_400_000;
const CATEGORY_NAMES: Record<string, string> = {
  'rental-add-ons': 'Rental add-ons',
  packages: 'Packages',
  gear: 'Gear',
  insurance: 'Insurance',
};
const TAG_NAMES: Record<string, string> = { family: 'Family', winter: 'Winter' };
const ADDONS = 'rental-add-ons';
const PACKAGES = 'packages';
const GEAR = 'gear';
const INSURANCE = 'insurance';
const TAGS: Record<string, string[]> = {
  'child-seat': ['family'],
  'booster-seat': ['family'],
  'snow-chains': ['winter'],
  'ski-rack': ['winter'],
};

function seeds(now: number): Seed[] {
  const simple = (slug: string, name: string, price: string, c = ADDONS, extra: ProductPatch = {}): Seed => ({
    slug,
    name,
    sku: `DEMO-${slug.toUpperCase()}`,
    regularPrice: price,
    categories: [c],
    ...(TAGS[slug] ? { tags: TAGS[slug] } : {}),
    ...(slug === 'full-protection' || slug === 'weekend-package' ? { featured: true } : {}),
    shortDescription: `${name} for your rental.`,
    ...extra,
  });
  return [
    simple('child-seat', 'Child seat', '12.00'),
    simple('booster-seat', 'Booster seat', '8.50'),
    simple('gps-navigator', 'GPS navigator', '9.99', GEAR),
    simple('snow-chains', 'Snow chains', '15.00', GEAR),
    simple('roof-box', 'Roof box', '24.00', GEAR),
    simple('bike-rack', 'Bike rack', '19.00', GEAR),
    simple('wifi-hotspot', 'Mobile Wi-Fi hotspot', '7.00', GEAR),
    simple('additional-driver', 'Additional driver', '10.00'),
    simple('young-driver-fee', 'Young driver fee', '18.00'),
    simple('airport-delivery', 'Airport delivery', '35.00'),
    simple('fuel-prepay', 'Prepaid full tank', '79.00'),
    simple('toll-pass', 'Toll pass', '5.00'),
    simple('cleaning-fee', 'Pet cleaning fee', '45.00'),
    simple('one-way-fee', 'One-way drop-off', '120.00', PACKAGES),
    simple('full-protection', 'Full protection', '149.99', INSURANCE, { fixedPrices: { EUR: '139.00' } }),
    simple('tyre-glass-cover', 'Tyre and glass cover', '6.50', INSURANCE, {
      fixedPrices: { EUR: '6.00', GBP: '5.50' },
    }),
    simple('weekend-package', 'Weekend package', '199.00', PACKAGES, { salePrice: '169.00' }),
    simple('camping-kit', 'Camping kit', '55.00', GEAR, {
      salePrice: '44.00',
      saleFrom: new Date(now - 2 * DAY),
      saleTo: new Date(now + 30 * DAY),
    }),
    simple('ski-rack', 'Ski rack', '22.00', GEAR, {
      salePrice: '17.60',
      saleFrom: new Date(now + 20 * DAY),
      saleTo: new Date(now + 50 * DAY),
    }),
    simple('summer-road-trip', 'Summer road-trip package', '349.00', PACKAGES, {
      salePrice: '299.00',
      saleFrom: new Date(now - 60 * DAY),
      saleTo: new Date(now - 30 * DAY),
    }),
    simple('electric-charging-card', 'EV charging card', '29.00', GEAR, { status: 'draft' }),
    simple('vip-meet-greet', 'VIP meet and greet', '89.00', PACKAGES, { status: 'private' }),
    simple('winter-package-2027', 'Winter package 2027', '259.00', PACKAGES, { status: 'pending' }),
    simple('old-cd-player', 'Portable CD player', '3.00', GEAR, { status: 'trash' }),
    simple('partner-fleet-rate', 'Partner fleet rate', '499.00', PACKAGES, { password: 'partners' }),
    simple('free-upgrade-voucher', 'Upgrade on request', '', PACKAGES),
    {
      slug: 'mileage-package',
      name: 'Mileage package',
      type: 'variable',
      sku: 'DEMO-MILEAGE',
      categories: [PACKAGES],
      attributes: [{ id: 0, name: 'Distance', options: ['300 km', '600 km', '1000 km', 'Unlimited'] }],
      variations: [
        {
          slug: 'mileage-package-300',
          name: 'Mileage package - 300 km',
          regularPrice: '25.00',
          attributes: [{ id: 0, name: 'Distance', option: '300 km' }],
        },
        {
          slug: 'mileage-package-600',
          name: 'Mileage package - 600 km',
          regularPrice: '45.00',
          salePrice: '39.00',
          attributes: [{ id: 0, name: 'Distance', option: '600 km' }],
        },
        {
          slug: 'mileage-package-1000',
          name: 'Mileage package - 1000 km',
          regularPrice: '70.00',
          attributes: [{ id: 0, name: 'Distance', option: '1000 km' }],
          fixedPrices: { EUR: '65.00' },
        },
        {
          slug: 'mileage-package-unlimited',
          name: 'Mileage package - Unlimited',
          regularPrice: '99.00',
          status: 'private',
          attributes: [{ id: 0, name: 'Distance', option: 'Unlimited' }],
        },
      ],
    },
    {
      slug: 'phone-mount',
      name: 'Phone mount',
      type: 'variable',
      sku: 'DEMO-PHONE-MOUNT',
      categories: [GEAR],
      attributes: [{ id: 0, name: 'Fit', options: ['Vent', 'Dashboard', 'Windscreen'] }],
      variations: ['Vent', 'Dashboard', 'Windscreen'].map((o) => ({
        slug: `phone-mount-${o.toLowerCase()}`,
        name: `Phone mount - ${o}`,
        regularPrice: '4.00',
        attributes: [{ id: 0, name: 'Fit', option: o }],
      })),
    },
    {
      slug: 'insurance-tier',
      name: 'Insurance tier',
      type: 'variable',
      sku: 'DEMO-INSURANCE-TIER',
      categories: [INSURANCE],
      attributes: [{ id: 0, name: 'Tier', options: ['Basic', 'Premium'] }],
      variations: [
        {
          slug: 'insurance-tier-basic',
          name: 'Insurance tier - Basic',
          regularPrice: '9.00',
          attributes: [{ id: 0, name: 'Tier', option: 'Basic' }],
        },
        {
          slug: 'insurance-tier-premium',
          name: 'Insurance tier - Premium',
          regularPrice: '19.00',
          attributes: [{ id: 0, name: 'Tier', option: 'Premium' }],
        },
      ],
    },
    {
      slug: 'draft-cargo-options',
      name: 'Cargo options (draft)',
      type: 'variable',
      status: 'draft',
      categories: [GEAR],
      variations: [{ slug: 'draft-cargo-options-net', name: 'Cargo options - Net', regularPrice: '3.00' }],
    },
  ];
}

async function slugId(db: Db, slug: string): Promise<number | null> {
  const r = await one<{ id: string | number }>(db, sql`SELECT id FROM rova_products WHERE slug = ${slug}`);
  return r ? Number(r.id) : null;
}

async function termIds(tx: Db, scope: TermScope, names: Record<string, string>): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const [slug, name] of Object.entries(names)) {
    out.set(
      slug,
      (await taxRepo.termSlugOwner(tx, scope, slug)) ?? (await taxRepo.insertTerm(tx, scope, { name, slug })),
    );
  }
  return out;
}

export async function seedStore(platform: Platform): Promise<void> {
  await platform.transaction(async (tx) => {
    const cats = await termIds(tx, CATEGORIES, CATEGORY_NAMES);
    const tags = await termIds(tx, TAGS_SCOPE, TAG_NAMES);
    for (const s of seeds(Date.now())) {
      const { variations, categories, tags: tagSlugs, ...product } = s;
      let id = await slugId(tx, s.slug);
      if (id === null) {
        id = await repo.insert(tx, null, { status: 'publish', type: 'simple', ...product });
        await taxRepo.setProductTerms(
          tx,
          id,
          'product_cat',
          (categories ?? []).map((c) => cats.get(c)!),
        );
        await taxRepo.setProductTerms(
          tx,
          id,
          'product_tag',
          (tagSlugs ?? []).map((c) => tags.get(c)!),
        );
        if (product.status === 'trash') await repo.update(tx, id, {}, { preTrashStatus: 'publish' });
      }
      for (const v of variations ?? []) {
        if ((await slugId(tx, v.slug)) === null)
          await repo.insert(tx, id, { status: 'publish', ...v, type: 'variation' });
      }
    }
  });
  await platform.bus.publish(CATALOGUE_TOPIC, 'seeded');
}
