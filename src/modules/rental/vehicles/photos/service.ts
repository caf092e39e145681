import { randomBytes } from 'node:crypto';
import type { AuthUser } from '../../../../platform/auth/types.js';
import type { Platform } from '../../../../platform/context.js';
import type { Db } from '../../../../platform/db/types.js';
import { checkKey } from '../../../../platform/storage/types.js';
import { catalogueChanged } from '../../catalogue.js';
import { invalidField, notFoundError, RentalErrors, vehicleNotFound } from '../../errors.js';
import { activeVendor } from '../vendor-service.js';
import { ownListing } from '../vendor-repo.js';
import { FORMATS, MAX_PHOTOS_PER_VEHICLE, VARIANT_NAMES, processPhoto, type Format, type Variant } from './images.js';
import { photosByVehicle, photoView, type PhotoView } from './views.js';
import {
  deletePhoto,
  insertPhotos,
  lockVehicleForPhotos,
  photoById,
  photosOf,
  photosOfMany,
  setAlt,
  setOrder,
  type NewPhoto,
  type PhotoRow,
} from './repo.js';

export interface UploadedPhoto {
  data: Buffer;
  alt: string;
}

/**
 * Who changes a vehicle's photos: an operator (any vehicle) or a vendor (its own vehicles only — another's answers
 * 404 like a missing one; a withdrawn listing cannot be edited, as with its other fields). A vendor's photo change
 * does not send an approved listing back to review: the listing's other edits do not either (migration 0705).
 */
export type PhotoEditor =
  | { kind: 'operator'; user: AuthUser }
  | { kind: 'vendor'; user: AuthUser }
  /** The demo seed: no one's upload. */
  | { kind: 'seed' };

async function checkEditor(tx: Db, who: PhotoEditor, vehicleId: number): Promise<void> {
  if (who.kind === 'vendor') {
    await activeVendor(tx, who.user);
    const l = await ownListing(tx, who.user.id, vehicleId, true);
    if (!l) throw vehicleNotFound(vehicleId);
    if (l.lifecycle === 'withdrawn') throw RentalErrors.stateConflict('A withdrawn vehicle cannot be edited.');
  }
  if (!(await lockVehicleForPhotos(tx, vehicleId))) throw vehicleNotFound(vehicleId);
}

const fileKey = (storageId: string, name: string) => checkKey(`vehicle-photos/${storageId}/${name}`);

/** The storage key of one variant file, or null when the name is not one of ours. */
export function variantKey(r: PhotoRow, variant: string, digest: string, format: string): string | null {
  if (!VARIANT_NAMES.includes(variant as Variant) || !(format in FORMATS) || digest !== r.digest) return null;
  return fileKey(r.storage_id, `${variant}.${format}`);
}

async function removeFiles(p: Platform, storageIds: readonly string[]): Promise<void> {
  for (const id of storageIds)
    for (const v of VARIANT_NAMES)
      for (const f of Object.keys(FORMATS) as Format[]) await p.storage.delete(fileKey(id, `${v}.${f}`));
}

function checkAlt(alt: string, field: string): string {
  const a = alt.trim();
  if (a.length > 300) throw invalidField(field, 'Alternative text is at most 300 characters.');
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(a)) throw invalidField(field, 'Alternative text cannot hold control characters.');
  return a;
}

/**
 * Adds photos to a vehicle, after its last one. Every file is checked and resized before anything is written (one
 * bad file refuses the whole upload), the variants go to the shared storage, then the rows in one transaction; when
 * that fails, the files just written are removed again.
 */
export async function addPhotos(
  p: Platform,
  who: PhotoEditor,
  vehicleId: number,
  uploads: UploadedPhoto[],
): Promise<number[]> {
  if (uploads.length === 0) throw invalidField('photos', 'Send at least one photo in the field "photos".');
  const prepared: NewPhoto[] = [];
  const processed = [];
  for (const [i, u] of uploads.entries()) {
    const alt = checkAlt(u.alt, `alt`);
    const ph = await processPhoto(u.data, uploads.length > 1 ? `photos[${i}]` : 'photos');
    processed.push(ph);
    prepared.push({
      alt,
      storage_id: randomBytes(16).toString('hex'),
      digest: ph.digest,
      width: ph.size.width,
      height: ph.size.height,
      variants: ph.variants,
    });
  }
  // refuse early (before any file is stored) what the transaction would refuse anyway
  await p.transaction((tx) => checkEditor(tx, who, vehicleId));
  const written: string[] = [];
  try {
    for (const [i, ph] of processed.entries()) {
      const id = prepared[i]!.storage_id;
      written.push(id);
      for (const f of ph.files) await p.storage.put(fileKey(id, f.name), f.data, f.contentType);
    }
    const ids = await p.transaction(async (tx) => {
      await checkEditor(tx, who, vehicleId);
      const have = (await photosOf(tx, vehicleId)).length;
      if (have + prepared.length > MAX_PHOTOS_PER_VEHICLE)
        throw RentalErrors.stateConflict(
          `A vehicle has at most ${MAX_PHOTOS_PER_VEHICLE} photos (it has ${have}; ${prepared.length} sent).`,
          { reason: 'too_many_photos' },
        );
      return insertPhotos(tx, vehicleId, prepared, who.kind === 'seed' ? null : who.user.id);
    });
    await catalogueChanged(p);
    return ids;
  } catch (err) {
    await removeFiles(p, written).catch(() => undefined);
    throw err;
  }
}

export async function changeAlt(
  p: Platform,
  who: PhotoEditor,
  vehicleId: number,
  photoId: number,
  alt: string,
): Promise<void> {
  const a = checkAlt(alt, 'alt');
  await p.transaction(async (tx) => {
    await checkEditor(tx, who, vehicleId);
    if (!(await setAlt(tx, vehicleId, photoId, a))) throw notFoundError('Photo', photoId);
  });
  await catalogueChanged(p);
}

/** New order of the vehicle's photos: every photo id of the vehicle, each once; the first is the cover. */
export async function reorderPhotos(
  p: Platform,
  who: PhotoEditor,
  vehicleId: number,
  photoIds: number[],
): Promise<void> {
  await p.transaction(async (tx) => {
    await checkEditor(tx, who, vehicleId);
    const have = (await photosOf(tx, vehicleId)).map((r) => Number(r.id));
    const same =
      photoIds.length === have.length &&
      new Set(photoIds).size === photoIds.length &&
      photoIds.every((id) => have.includes(id));
    if (!same)
      throw invalidField(
        'photo_ids',
        `photo_ids must list every photo of vehicle ${vehicleId} once (${have.join(', ') || 'it has none'}).`,
      );
    await setOrder(tx, vehicleId, photoIds);
  });
  await catalogueChanged(p);
}

export async function removePhoto(p: Platform, who: PhotoEditor, vehicleId: number, photoId: number): Promise<void> {
  const gone = await p.transaction(async (tx) => {
    await checkEditor(tx, who, vehicleId);
    const r = await deletePhoto(tx, vehicleId, photoId);
    if (!r) throw notFoundError('Photo', photoId);
    return r;
  });
  // after the commit: a failed delete leaves unreachable files, never a row without its files
  await removeFiles(p, [gone.storage_id]).catch(() => undefined);
  await catalogueChanged(p);
}

/** The photos of a vehicle as its editor sees them (404 for another vendor's vehicle). */
export async function editablePhotos(p: Platform, who: PhotoEditor, vehicleId: number): Promise<PhotoRow[]> {
  if (who.kind === 'vendor') {
    if (!(await ownListing(p.db, who.user.id, vehicleId))) throw vehicleNotFound(vehicleId);
  }
  return photosOf(p.db, vehicleId);
}

/** Files of a vehicle that is being deleted (the rows go with it, ON DELETE CASCADE). */
export async function photoFilesOf(db: Db, vehicleId: number): Promise<string[]> {
  return (await photosOf(db, vehicleId)).map((r) => r.storage_id);
}

export async function removePhotoFiles(p: Platform, storageIds: readonly string[]): Promise<void> {
  await removeFiles(p, storageIds).catch(() => undefined);
}

/** One variant file for the public route: null when the vehicle, photo, digest, variant or file is unknown. */
export async function photoFile(
  p: Platform,
  vehicleId: number,
  photoId: number,
  name: string,
): Promise<{ data: Buffer; contentType: string; etag: string } | null> {
  const m = /^([a-z]+)\.([0-9a-f]{16})\.(webp|jpg)$/.exec(name);
  if (!m) return null;
  const r = await photoById(p.db, vehicleId, photoId);
  if (!r) return null;
  const key = variantKey(r, m[1]!, m[2]!, m[3]!);
  if (!key) return null;
  const o = await p.storage.get(key);
  if (!o) return null;
  return { data: o.data, contentType: FORMATS[m[3] as Format], etag: `"${r.digest}-${m[1]}-${m[3]}"` };
}

/** A vehicle's photos as the answers list them, cover first. */
export async function photoViewsOf(p: Platform, vehicleId: number): Promise<PhotoView[]> {
  return (await photosOf(p.db, vehicleId)).map((r) => photoView(p.config.restRoot, r));
}

/** The photos of a page of vehicles, by vehicle id (a vehicle without photos is absent). */
export async function photoViewsOfMany(p: Platform, vehicleIds: readonly number[]): Promise<Map<number, PhotoView[]>> {
  return photosByVehicle(p.config.restRoot, await photosOfMany(p.db, vehicleIds));
}
