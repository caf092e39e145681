import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../../src/platform/db/types.js';
import { makeApp, type TestApp } from '../../helpers/app.js';
import { V1, vehicle } from '../helpers.js';
import { multipart, vendor, vendorVehicle, V2 } from './helpers.js';

interface Variant {
  width: number;
  height: number;
  webp: string;
  jpg: string;
}
interface Photo {
  id: number;
  position: number;
  alt: string;
  width: number;
  height: number;
  variants: Record<'thumb' | 'card' | 'detail', Variant>;
}

// Issue 36.2: operators and vendors upload vehicle photos; resized, metadata-free variants are served publicly.
describe('vehicle photos', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  let jpegWithGps: Buffer;
  let png: Buffer;
  beforeAll(async () => {
    t = await makeApp({ env: { RENTAL_WRITE_RATE_LIMIT: '100000', RENTAL_PUBLIC_RATE_LIMIT: '100000' } });
    admin = { 'x-rova-api-key': (await t.userWithKey('administrator')).key };
    // a camera photo: 2000×1000 stored sideways (EXIF orientation 6 = turn 90° clockwise), with a GPS position
    jpegWithGps = await sharp({ create: { width: 2000, height: 1000, channels: 3, background: '#c0392b' } })
      .jpeg()
      .withExif({ IFD0: { Make: 'RovaCam' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '52/1 31/1 12/1' } })
      .withMetadata({ orientation: 6 })
      .toBuffer();
    png = await sharp({ create: { width: 300, height: 200, channels: 4, background: '#2e86de80' } })
      .png()
      .toBuffer();
  }, 300_000);
  afterAll(async () => t?.close());

  const form = (files: { data: Buffer; name?: string; type?: string }[], alts: string[] = []) => {
    const m = multipart(
      {},
      files.map((f, i) => ({ field: 'photos', name: f.name ?? `p${i}.jpg`, data: f.data, type: f.type })),
    );
    if (alts.length === 0) return m;
    // alt fields go first: rebuild with them (the helper writes fields before files)
    const withAlts = multipart(
      {},
      files.map((f, i) => ({ field: 'photos', name: f.name ?? `p${i}.jpg`, data: f.data, type: f.type })),
    );
    const boundary = /boundary=(.+)$/.exec(withAlts.headers['content-type']!)![1]!;
    const altParts = alts
      .map((a) => `--${boundary}\r\ncontent-disposition: form-data; name="alt"\r\n\r\n${a}\r\n`)
      .join('');
    return { headers: withAlts.headers, payload: Buffer.concat([Buffer.from(altParts), withAlts.payload]) };
  };
  const upload = (url: string, h: Record<string, string>, body: ReturnType<typeof form>) =>
    t.inject({ method: 'POST', url, headers: { ...h, ...body.headers }, payload: body.payload });
  const get = (url: string, h: Record<string, string> = {}) => t.inject({ method: 'GET', url, headers: h });

  it('an operator uploads photos: turned upright, resized to thumb/card/detail, WebP and JPEG, metadata stripped', async () => {
    const id = await vehicle(t);
    const r = await upload(
      `${V1}/vehicles/${id}/photos`,
      admin,
      form([{ data: jpegWithGps }, { data: png }], ['Red car, side view', 'Blue car']),
    );
    expect(r.statusCode, r.body).toBe(201);
    expect(r.json().message).toBe('2 photo(s) added.');
    const photos = r.json().data as Photo[];
    expect(photos.map((p) => [p.position, p.alt, p.width, p.height])).toEqual([
      [0, 'Red car, side view', 1000, 2000],
      [1, 'Blue car', 300, 200],
    ]);
    const [red, blue] = photos as [Photo, Photo];
    expect(red.variants.thumb).toMatchObject({ width: 160, height: 320 });
    expect(red.variants.card).toMatchObject({ width: 480, height: 960 });
    expect(red.variants.detail).toMatchObject({ width: 1000, height: 2000 }); // never enlarged
    expect(blue.variants.card).toMatchObject({ width: 300, height: 200 });
    expect(red.variants.card.webp).toMatch(
      new RegExp(`^/wp-json/rova-rental/v1/vehicles/${id}/photos/${red.id}/card\\.[0-9a-f]{16}\\.webp$`),
    );

    // the admin vehicle answer lists them
    const v = await get(`${V1}/vehicles/${id}`, admin);
    expect((v.json().data.photos as Photo[]).map((p) => p.id)).toEqual([red.id, blue.id]);

    for (const [variant, size] of Object.entries(red.variants)) {
      const webp = await get(size.webp);
      expect(webp.statusCode, variant).toBe(200);
      expect(webp.headers['content-type']).toBe('image/webp');
      expect(webp.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const etag = webp.headers.etag as string;
      expect(etag).toMatch(/^"[0-9a-f]{16}-\w+-webp"$/);
      const meta = await sharp(webp.rawPayload).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['webp', size.width, size.height]);
      expect(meta.exif).toBeUndefined();
      const jpg = await get(size.jpg);
      expect(jpg.statusCode).toBe(200);
      expect(jpg.headers['content-type']).toBe('image/jpeg');
      const jmeta = await sharp(jpg.rawPayload).metadata();
      expect([jmeta.format, jmeta.width, jmeta.height, jmeta.exif, jmeta.orientation]).toEqual([
        'jpeg',
        size.width,
        size.height,
        undefined,
        undefined,
      ]);
      expect(jpg.rawPayload.includes(Buffer.from('RovaCam'))).toBe(false);
      // a revalidation with the ETag is a 304 without a body
      const again = await get(size.webp, { 'if-none-match': etag });
      expect(again.statusCode).toBe(304);
      expect(again.rawPayload.length).toBe(0);
    }
    // the upload itself carried them: the test photo is what it claims to be
    expect((await sharp(jpegWithGps).metadata()).exif).toBeDefined();

    // unknown variant, digest, photo, vehicle or extension → 404
    const url = red.variants.card.webp;
    for (const bad of [
      url.replace('/card.', '/huge.'),
      url.replace(/\.[0-9a-f]{16}\./, '.0000000000000000.'),
      url.replace(`/photos/${red.id}/`, `/photos/${red.id + 1000}/`),
      url.replace(`/vehicles/${id}/`, `/vehicles/${id + 1000}/`),
      url.replace(/\.webp$/, '.gif'),
    ]) {
      const r404 = await get(bad);
      expect(r404.statusCode, bad).toBe(404);
      expect(r404.json()).toMatchObject({ success: false, error_code: 'RESOURCE_NOT_FOUND' });
    }
  });

  it('reorders (first = cover), sets alt text and deletes, each audited; a deleted photo’s files are gone', async () => {
    const id = await vehicle(t);
    const up = await upload(`${V1}/vehicles/${id}/photos`, admin, form([{ data: png }, { data: png }, { data: png }]));
    expect(up.statusCode, up.body).toBe(201);
    const [a, b, c] = (up.json().data as Photo[]).map((p) => p.id) as [number, number, number];

    const bad = await t.inject({
      method: 'PUT',
      url: `${V1}/vehicles/${id}/photos/order`,
      headers: admin,
      payload: { photo_ids: [c, a] },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error_code: 'INVALID_PARAMS', details: { field: 'photo_ids' } });

    const order = await t.inject({
      method: 'PUT',
      url: `${V1}/vehicles/${id}/photos/order`,
      headers: admin,
      payload: { photo_ids: [c, a, b] },
    });
    expect(order.statusCode, order.body).toBe(200);
    expect((order.json().data as Photo[]).map((p) => [p.id, p.position])).toEqual([
      [c, 0],
      [a, 1],
      [b, 2],
    ]);

    const alt = await t.inject({
      method: 'PUT',
      url: `${V1}/vehicles/${id}/photos/${a}`,
      headers: admin,
      payload: { alt: '  Dashboard  ' },
    });
    expect(alt.statusCode, alt.body).toBe(200);
    expect((alt.json().data as Photo[]).find((p) => p.id === a)!.alt).toBe('Dashboard');

    const cover = (order.json().data as Photo[])[0]!;
    const stored = async () => {
      const keys: string[] = [];
      for await (const k of t.platform.storage.keys('vehicle-photos/')) keys.push(k);
      return keys.length;
    };
    const before = await stored();
    const del = await t.inject({ method: 'DELETE', url: `${V1}/vehicles/${id}/photos/${c}`, headers: admin });
    expect(del.statusCode, del.body).toBe(200);
    expect((del.json().data as Photo[]).map((p) => [p.id, p.position])).toEqual([
      [a, 0],
      [b, 1],
    ]);
    expect((await get(cover.variants.card.jpg)).statusCode).toBe(404);
    expect(before - (await stored())).toBe(6); // three sizes × two formats
    const gone = await t.inject({ method: 'DELETE', url: `${V1}/vehicles/${id}/photos/${c}`, headers: admin });
    expect(gone.statusCode).toBe(404);

    const audit = await rows<{ method: string; target: string; details: { photos: string } }>(
      t.platform.db,
      sql`SELECT method, target, details FROM rova_audit_log WHERE target = ${`vehicle:${id}`} AND status < 400 ORDER BY id`,
    );
    expect(audit.map((x) => [x.method, x.details.photos])).toEqual([
      ['POST', 'uploaded'],
      ['PUT', 'reordered'],
      ['PUT', 'alt_changed'],
      ['DELETE', 'deleted'],
    ]);
  });

  it('refuses what is not a JPEG, PNG or WebP by its bytes (whatever its name), and oversize files; nothing is written', async () => {
    const id = await vehicle(t);
    const gif = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1');
    const pdf = Buffer.from('%PDF-1.4\n%%EOF\n');
    for (const data of [gif, pdf, Buffer.from('just text'), jpegWithGps.subarray(0, 200)]) {
      const r = await upload(
        `${V1}/vehicles/${id}/photos`,
        admin,
        form([{ data: png }, { data, name: 'car.jpg', type: 'image/jpeg' }]),
      );
      expect(r.statusCode, r.body).toBe(400);
      expect(r.json()).toMatchObject({ success: false, error_code: 'INVALID_PARAMS', details: { field: 'photos[1]' } });
    }
    const big = await upload(
      `${V1}/vehicles/${id}/photos`,
      admin,
      form([{ data: Buffer.concat([png, Buffer.alloc(16 * 1024 * 1024)]) }]),
    );
    expect(big.statusCode).toBe(413);
    expect(big.json()).toMatchObject({ success: false, error_code: 'PAYLOAD_TOO_LARGE' });
    const notForm = await t.inject({
      method: 'POST',
      url: `${V1}/vehicles/${id}/photos`,
      headers: admin,
      payload: { photos: [] },
    });
    expect(notForm.statusCode).toBe(400);
    expect((await get(`${V1}/vehicles/${id}`, admin)).json().data.photos).toEqual([]);
    const missing = await upload(`${V1}/vehicles/${id + 100000}/photos`, admin, form([{ data: png }]));
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error_code).toBe('VEHICLE_NOT_FOUND');
  });

  it('vendors change their own vehicles’ photos only; the search cards list them', async () => {
    const ada = await vendor(t);
    const bob = await vendor(t);
    const mine = await vendorVehicle(t, ada.id);
    const theirs = await vendorVehicle(t, bob.id);
    const up = await upload(`${V1}/vendor/vehicles/${mine}/photos`, ada.h, form([{ data: png }], ['Front']));
    expect(up.statusCode, up.body).toBe(201);
    const photo = (up.json().data as Photo[])[0]!;

    // another vendor's vehicle answers 404 on every photo route, like a missing one; nothing changes
    const other = await upload(`${V1}/vendor/vehicles/${theirs}/photos`, ada.h, form([{ data: png }]));
    expect(other.statusCode).toBe(404);
    expect(other.json().error_code).toBe('VEHICLE_NOT_FOUND');
    expect((await get(`${V1}/vendor/vehicles/${mine}/photos`, bob.h)).statusCode).toBe(404);
    const steal = await t.inject({
      method: 'DELETE',
      url: `${V1}/vendor/vehicles/${mine}/photos/${photo.id}`,
      headers: bob.h,
    });
    expect(steal.statusCode).toBe(404);
    const rename = await t.inject({
      method: 'PUT',
      url: `${V1}/vendor/vehicles/${mine}/photos/${photo.id}`,
      headers: bob.h,
      payload: { alt: 'mine now' },
    });
    expect(rename.statusCode).toBe(404);
    // and the operator's routes are not the vendor's
    const op = await upload(`${V1}/vehicles/${mine}/photos`, ada.h, form([{ data: png }]));
    expect(op.statusCode).toBe(403);
    const list = await get(`${V1}/vendor/vehicles/${mine}/photos`, ada.h);
    expect((list.json().data as Photo[]).map((p) => [p.id, p.alt])).toEqual([[photo.id, 'Front']]);

    // the public search card carries them; the review detail too
    await t.inject({ method: 'PUT', url: `${V1}/vehicles/${mine}`, headers: admin, payload: { brand: 'Photomobile' } });
    const s = await get(`${V2}/vehicles/search?brand=Photomobile`);
    expect(s.statusCode, s.body).toBe(200);
    const card = (s.json().data.items as { vehicle_id: number; photos: Photo[] }[]).find((c) => c.vehicle_id === mine)!;
    expect(card.photos).toEqual([photo]);
    const review = await get(`${V1}/vendor-management/vehicles/${mine}`, admin);
    expect(review.json().data.photos).toEqual([photo]);

    // a withdrawn listing cannot be edited, photos included
    await t.platform.db.execute(sql`UPDATE vendor_listings SET lifecycle = 'withdrawn' WHERE vehicle_id = ${mine}`);
    const late = await t.inject({
      method: 'DELETE',
      url: `${V1}/vendor/vehicles/${mine}/photos/${photo.id}`,
      headers: ada.h,
    });
    expect(late.statusCode).toBe(409);
  });
});
