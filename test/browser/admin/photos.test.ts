import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAxeClean as widgetAxeClean, WIDGET } from '../book-helpers.js';
import { visitorAddress } from '../harness.js';
import {
  expectAxeClean,
  expectNoPageErrors,
  loginAs,
  openAdmin,
  rental,
  startAdminRig,
  type AdminRig,
} from './helpers.js';

// Vehicle photos (issue 36.2): the operator adds photos on the vehicle's form by clicking, orders them and gives
// them alternative texts; the booking widget shows the cover on the result card and a gallery on the detail.
let rig: AdminRig;
const NAME = 'Photomobile Aurora';
let vehicleId = 0;
const dir = mkdtempSync(path.join(tmpdir(), 'rova-photos-'));
const files: string[] = [];

beforeAll(async () => {
  rig = await startAdminRig();
  // the cheapest car of the store: the first card of a search without words
  vehicleId = (
    await rental<{ id: number }>(rig, '/rova-rental/v1/vehicles', {
      method: 'POST',
      body: JSON.stringify({ name: NAME, price_per_day: 1, status: 'active', service_type: 'rental' }),
    })
  ).id;
  for (const [i, colour] of ['#c0392b', '#2e86de'].entries()) {
    const f = path.join(dir, `camera-${i + 1}.jpg`);
    writeFileSync(
      f,
      await sharp({ create: { width: 1600, height: 1000, channels: 3, background: colour } })
        .jpeg()
        .toBuffer(),
    );
    files.push(f);
  }
});
afterAll(async () => {
  await rig?.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Photo {
  id: number;
  alt: string;
  variants: Record<'thumb' | 'card' | 'detail', { webp: string; jpg: string }>;
}

describe('vehicle photos', () => {
  it('operator: Edit vehicle → Add photos (file chooser) → alt texts → cover moved; widget: cover on the card, gallery on the detail', async () => {
    const a = await openAdmin(rig);
    const { page } = a;
    await loginAs(rig, a, { path: '/vehicles' });
    await page.goto(`${rig.shop.origin}/admin/vehicles`);
    await page.getByRole('heading', { level: 1, name: 'Vehicles' }).waitFor();
    const search = page.getByRole('search').getByLabel('Search');
    await search.fill(NAME);
    await search.press('Enter');
    await page.getByRole('button', { name: `Edit ${NAME}` }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('No photos yet.').waitFor();

    // a person clicks "Add photos" and picks two files in the chooser
    const chooser = page.waitForEvent('filechooser');
    await dialog.getByLabel('Add photos').click();
    await (await chooser).setFiles(files);
    const list = dialog.getByRole('list', { name: `Photos of ${NAME}` });
    await expect.poll(() => list.getByRole('listitem').count()).toBe(2);
    await page.getByText('Photos added').first().waitFor();

    await dialog.getByLabel('Alternative text of photo 1').fill('Red Aurora, side view');
    await dialog.getByRole('button', { name: 'Save text' }).first().click();
    await page.getByText('Alternative text saved').first().waitFor();
    await dialog.getByLabel('Alternative text of photo 2').fill('Blue Aurora from the front');
    await dialog.getByRole('button', { name: 'Save text' }).nth(1).click();
    await expect
      .poll(async () => (await rental<Photo[]>(rig, `/rova-rental/v1/vehicles/${vehicleId}/photos`)).map((p) => p.alt))
      .toEqual(['Red Aurora, side view', 'Blue Aurora from the front']);
    // the blue one becomes the cover
    await dialog.getByRole('button', { name: 'Move earlier (photo 2)' }).click();
    await expect
      .poll(async () => (await rental<Photo[]>(rig, `/rova-rental/v1/vehicles/${vehicleId}/photos`)).map((p) => p.alt))
      .toEqual(['Blue Aurora from the front', 'Red Aurora, side view']);
    await expect.poll(() => dialog.getByText('Cover photo').count()).toBe(1);
    await expect
      .poll(() => list.getByRole('listitem').first().getByRole('img').getAttribute('alt'))
      .toBe('Blue Aurora from the front');
    await expectAxeClean(page, 'vehicle photos');
    expectNoPageErrors(a);
    await a.context.close();

    // the storefront: the widget's first card is this car, with its cover
    const context = await rig.browser.newContext({
      viewport: { width: 1100, height: 900 },
      extraHTTPHeaders: { 'X-Forwarded-For': visitorAddress() },
    });
    const w = await context.newPage();
    const errors: Error[] = [];
    w.on('pageerror', (e) => errors.push(e));
    await w.goto(`${rig.shop.origin}/demo/rent?rova_pickup=2027-09-06T10:00&rova_return=2027-09-08T10:00`);
    const widget = w.locator(WIDGET);
    await widget.locator('button[data-f=search]').click();
    const card = widget.locator('li.card', { hasText: NAME });
    await card.waitFor({ timeout: 15_000 }).catch(async (e: unknown) => {
      throw new Error(`${String(e)}\n--- page errors ---\n${errors.map(String).join('\n')}`);
    });
    const img = card.locator('picture img');
    expect(await img.getAttribute('alt')).toBe('Blue Aurora from the front');
    expect(await img.getAttribute('loading')).toBe('lazy');
    expect([await img.getAttribute('width'), await img.getAttribute('height')]).toEqual(['480', '300']);
    expect(await card.locator('picture source').getAttribute('type')).toBe('image/webp');
    await expect.poll(() => img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth > 0)).toBe(true);
    const src = await img.evaluate((i: HTMLImageElement) => i.currentSrc);
    expect(src).toMatch(/\/photos\/\d+\/(thumb|card)\.[0-9a-f]{16}\.webp$/); // Chromium takes the WebP
    const res = await fetch(src);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/webp');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('etag')).toMatch(/^"[0-9a-f]{16}-(thumb|card)-webp"$/);

    await card.getByRole('button', { name: `Choose ${NAME}` }).click();
    const gallery = widget.getByRole('region', { name: `Photos of ${NAME}` });
    await gallery.waitFor();
    const shown = gallery.locator('[data-f=photo] img');
    expect(await shown.getAttribute('alt')).toBe('Blue Aurora from the front');
    // keyboard: Tab to the second thumbnail, Enter shows it
    await gallery.getByRole('button', { name: 'Show photo 1 of 2' }).focus();
    await w.keyboard.press('Tab');
    await w.keyboard.press('Enter');
    await expect.poll(() => shown.getAttribute('alt')).toBe('Red Aurora, side view');
    expect(await gallery.getByRole('button', { name: 'Show photo 2 of 2' }).getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => shown.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth > 0)).toBe(true);
    await widgetAxeClean(w, 'widget gallery');
    expect(errors).toEqual([]);
    await context.close();
  });
});
