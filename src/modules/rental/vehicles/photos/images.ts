import { createHash } from 'node:crypto';
import type { OutputInfo } from 'sharp';
import { invalidField } from '../../errors.js';
import { sniffDocument } from '../../vendors/applications/uploads.js';
import { loadSharp } from './sharp.js';

/** The largest photo file accepted (413 past it). */
export const MAX_PHOTO_BYTES = 15 * 1024 * 1024;
/** Photos a vehicle may have at most (409 past it). */
export const MAX_PHOTOS_PER_VEHICLE = 20;
/** Past this many pixels a file is refused before it is decoded (a small file can claim a huge image). */
const MAX_PIXELS = 50_000_000;

/** The sizes every photo is kept in, by width (never enlarged): a thumbnail, a result card, the vehicle's detail. */
export const VARIANTS = { thumb: 160, card: 480, detail: 1280 } as const;
export type Variant = keyof typeof VARIANTS;
export const VARIANT_NAMES = Object.keys(VARIANTS) as Variant[];
export const FORMATS = { webp: 'image/webp', jpg: 'image/jpeg' } as const;
export type Format = keyof typeof FORMATS;

export interface Size {
  width: number;
  height: number;
}

export interface ProcessedPhoto {
  /** The first 16 hex digits of the upload's SHA-256: part of every variant URL (new bytes, new URL). */
  digest: string;
  /** The upright picture's size (after the EXIF orientation is applied). */
  size: Size;
  variants: Record<Variant, Size>;
  /** `<variant>.<format>` → the encoded bytes. */
  files: { name: `${Variant}.${Format}`; data: Buffer; contentType: string }[];
}

const ACCEPTED = new Set(['image/jpeg', 'image/png', 'image/webp']);

/**
 * Checks an uploaded photo and makes its variants: the type comes from the bytes (JPEG, PNG or WebP; anything else,
 * or a file that does not decode, is a 400 naming `field`), the picture is turned upright and every variant is
 * encoded fresh — sharp writes no metadata unless asked, so EXIF (GPS position, camera serial) never reaches a file.
 */
export async function processPhoto(data: Buffer, field: string): Promise<ProcessedPhoto> {
  const type = sniffDocument(data);
  if (!type || !ACCEPTED.has(type.mime))
    throw invalidField(field, 'Photos must be JPEG, PNG or WebP images (checked from the content).');
  const sharp = await loadSharp();
  let upright: { data: Buffer; info: OutputInfo };
  try {
    // one decode, turned upright, kept lossless in memory; every variant is resized from it
    upright = await sharp(data, { limitInputPixels: MAX_PIXELS, failOn: 'error' })
      .rotate()
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch {
    throw invalidField(field, 'The photo could not be read: the file is damaged, truncated or too large in pixels.');
  }
  const { width, height, channels } = upright.info;
  const raw = { raw: { width, height, channels } };
  const files: ProcessedPhoto['files'] = [];
  const variants = {} as Record<Variant, Size>;
  for (const v of VARIANT_NAMES) {
    const resized = await sharp(upright.data, raw)
      .resize({ width: VARIANTS[v], withoutEnlargement: true })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const { width: w, height: h, channels: c } = resized.info;
    variants[v] = { width: w, height: h };
    const src = () => sharp(resized.data, { raw: { width: w, height: h, channels: c } });
    files.push({ name: `${v}.webp`, data: await src().webp({ quality: 80 }).toBuffer(), contentType: FORMATS.webp });
    files.push({
      name: `${v}.jpg`,
      // JPEG has no transparency: a PNG's clear parts become white, not black
      data: await src().flatten({ background: '#ffffff' }).jpeg({ quality: 82, progressive: true }).toBuffer(),
      contentType: FORMATS.jpg,
    });
  }
  return {
    digest: createHash('sha256').update(data).digest('hex').slice(0, 16),
    size: { width, height },
    variants,
    files,
  };
}
