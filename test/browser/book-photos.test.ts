import type { Locator, Page, Response } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectAxeClean, expectFits, fromHome, SIZES, tabTo, WIDGET } from './book-helpers.js';
import { useBookShop } from './book-rig.js';
import { visitorAddress } from './harness.js';

// Vehicle photos in the booking widget (issue 36.2), in real Chromium against the real app with demo data (every demo
// vehicle gets drawn photos at seed time, the first three a second one): the cover on the search card, the gallery on
// the detail (keyboard), and the variant files the page loads, answered for good (immutable, ETag, 304).

const rig = useBookShop();
const { open } = rig;

type Variant = { width: number; height: number; webp: string; jpg: string };
interface Photo {
  alt: string;
  variants: { thumb: Variant; card: Variant; detail: Variant };
}
interface Item {
  vehicle_id: number;
  name: string;
  photos: Photo[];
}

/** Waits until the image has loaded and answers the URL it shows (the `<picture>` candidate the browser took). */
async function loaded(img: Locator): Promise<string> {
  // scrolled to within the poll: a re-render of the view replaces the element (a clean-clone run's scroll met a
  // detached one and failed), and the locator finds the new one on the next round
  await expect
    .poll(async () => {
      await img.scrollIntoViewIfNeeded({ timeout: 5_000 }).catch(() => undefined);
      return img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth > 0 && i.currentSrc !== '');
    })
    .toBe(true);
  return img.evaluate((i: HTMLImageElement) => i.currentSrc);
}

/** The URL was fetched by the page and answered as a file that never changes; asked again with its ETag: 304. */
async function cachedForGood(seen: Map<string, Response>, url: string): Promise<void> {
  const res = seen.get(url);
  expect(res, `the page fetched ${url}`).toBeTruthy();
  expect(res!.status()).toBe(200);
  const headers = await res!.allHeaders();
  expect(headers['cache-control']).toBe('public, max-age=31536000, immutable');
  expect(headers['content-type']).toBe(url.endsWith('.webp') ? 'image/webp' : 'image/jpeg');
  const etag = headers.etag!;
  expect(etag).toMatch(/^(W\/)?"[^"]+"$/);
  const again = await fetch(url, { headers: { 'if-none-match': etag, 'x-forwarded-for': visitorAddress() } });
  expect(again.status).toBe(304);
  expect(again.headers.get('etag')).toBe(etag);
  expect(await again.text()).toBe('');
}

const photoResponses = (page: Page): Map<string, Response> => {
  const seen = new Map<string, Response>();
  page.on('response', (r) => {
    if (/\/rova-rental\/v1\/vehicles\/\d+\/photos\/\d+\//.test(r.url())) seen.set(r.url(), r);
  });
  return seen;
};

describe('vehicle photos in the booking widget', () => {
  it.each(SIZES)(
    '%s: from /, each card shows its cover as a lazy <picture> with alt text; the detail’s gallery is worked by keyboard; every photo URL the page loads is cacheable for good (immutable, ETag, 304)',
    async (_n, width, height) => {
      const { page } = await fromHome(open, { width, height });
      const seen = photoResponses(page);
      const w = page.locator(WIDGET);
      const searched = page.waitForResponse((r) => r.url().includes('/rova-rental/v2/vehicles/search'));
      await w.locator('button[data-f=search]').click();
      await w.locator('ul.cards').waitFor();
      const items = ((await (await searched).json()) as { data: { items: Item[] } }).data.items;
      expect(items.every((i) => i.photos.length > 0)).toBe(true);

      // each card: its cover (the first photo) as <picture>, WebP first, loaded when scrolled near, with alt text
      const cards = w.locator('ul.cards li');
      expect(await cards.count()).toBe(items.length);
      const covers = await cards.evaluateAll((lis) =>
        lis.map((li) => {
          const img = li.querySelector('.cover picture > img') as HTMLImageElement | null;
          return {
            webp: li.querySelector('.cover picture > source[type="image/webp"]')?.getAttribute('srcset') ?? null,
            alt: img?.alt ?? null,
            loading: img?.getAttribute('loading') ?? null,
            size: img ? [img.getAttribute('width'), img.getAttribute('height')] : null,
          };
        }),
      );
      const abs = (path: string) => new URL(path, rig.shop.origin).href;
      expect(covers).toEqual(
        items.map((i) => {
          const p = i.photos[0]!;
          return {
            webp: `${abs(p.variants.thumb.webp)} ${p.variants.thumb.width}w, ${abs(p.variants.card.webp)} ${p.variants.card.width}w`,
            alt: p.alt || i.name,
            loading: 'lazy',
            size: [String(p.variants.card.width), String(p.variants.card.height)],
          };
        }),
      );
      expect(covers[0]!.alt).toBe(`${items[0]!.name}, side view`);
      const first = await loaded(cards.first().locator('.cover img'));
      expect(first).toMatch(/\.webp$/);
      await cachedForGood(seen, first);
      await expectAxeClean(page, `${width}px: results with covers`);
      await expectFits(page, width, 'results with covers');

      // a vehicle with two photos: the detail's gallery, one large photo and a thumbnail button per photo
      const two = items.find((i) => i.photos.length > 1);
      expect(two, 'a vehicle with two photos among the results').toBeTruthy();
      await w.locator(`button[data-f=choose-${two!.vehicle_id}]`).click();
      const gallery = w.getByRole('region', { name: `Photos of ${two!.name}` });
      await gallery.waitFor();
      const shown = gallery.locator('[data-f=photo] img');
      const [one, other] = two!.photos as [Photo, Photo];
      expect(await shown.getAttribute('alt')).toBe(one.alt);
      const thumb1 = gallery.getByRole('button', { name: 'Show photo 1 of 2' });
      const thumb2 = gallery.getByRole('button', { name: 'Show photo 2 of 2' });
      expect(await thumb1.getAttribute('aria-pressed')).toBe('true');
      expect(await thumb2.getAttribute('aria-pressed')).toBe('false');
      await cachedForGood(seen, await loaded(shown));
      await expectAxeClean(page, `${width}px: detail with gallery`);
      await expectFits(page, width, 'detail with gallery');

      // keyboard: Tab to the second thumbnail, Enter shows it; back to the first with Shift+Tab and Space
      await tabTo(page, 'Show photo 2 of 2');
      await page.keyboard.press('Enter');
      await expect.poll(() => shown.getAttribute('alt')).toBe(other.alt);
      expect(await thumb2.getAttribute('aria-pressed')).toBe('true');
      expect(await thumb1.getAttribute('aria-pressed')).toBe('false');
      const second = await loaded(shown);
      expect(second).toContain(`/photos/`);
      expect([other.variants.card.webp, other.variants.detail.webp].map(abs)).toContain(second);
      await cachedForGood(seen, second);
      await expectAxeClean(page, `${width}px: second photo`);
      await expectFits(page, width, 'second photo');
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Space');
      await expect.poll(() => shown.getAttribute('alt')).toBe(one.alt);
      expect(await thumb1.getAttribute('aria-pressed')).toBe('true');

      // every photo the page shows came with those headers (the thumbnails too)
      const imgs = w.locator('img');
      await expect.poll(() => imgs.evaluateAll((all) => all.every((i) => (i as HTMLImageElement).complete))).toBe(true);
      const used = await imgs.evaluateAll((all) =>
        all.map((i) => (i as HTMLImageElement).currentSrc).filter((u) => u !== ''),
      );
      expect(used.length).toBeGreaterThanOrEqual(3);
      for (const url of new Set(used)) await cachedForGood(seen, url);
    },
  );
});
