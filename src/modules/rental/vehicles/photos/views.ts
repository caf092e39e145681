import { Type, type Static } from '@sinclair/typebox';
import { VARIANT_NAMES, VARIANTS, type Format, type Variant } from './images.js';
import type { PhotoRow } from './repo.js';

const Url = (f: Format) =>
  Type.String({
    description: `Path (under the REST root) of the ${f === 'webp' ? 'WebP' : 'JPEG'} file; cacheable for a year`,
  });
const VariantView = Type.Object(
  { width: Type.Integer(), height: Type.Integer(), webp: Url('webp'), jpg: Url('jpg') },
  { additionalProperties: false },
);

/** A vehicle photo as every answer lists it: cover first (position 0). */
export const PhotoView = Type.Object(
  {
    id: Type.Integer(),
    position: Type.Integer({ description: '0 is the cover' }),
    alt: Type.String({ description: 'Alternative text for screen readers ("" until set)' }),
    width: Type.Integer({ description: 'The upright picture as uploaded, pixels' }),
    height: Type.Integer(),
    variants: Type.Object(
      {
        thumb: VariantView,
        card: VariantView,
        detail: VariantView,
      },
      {
        additionalProperties: false,
        description: `Resized copies by width, never enlarged: ${VARIANT_NAMES.map((v) => `${v} ${VARIANTS[v]} px`).join(', ')}; each as WebP and JPEG, metadata stripped`,
      },
    ),
  },
  { additionalProperties: false, description: 'Vehicle photo' },
);
export type PhotoView = Static<typeof PhotoView>;

/**
 * The public path of one variant file: the digest of the upload is in the file name, so the path names these bytes
 * only and may be cached for good (`…/vehicles/7/photos/31/card.5f3a9c1e0b2d4a68.webp`).
 */
export function variantPath(restRoot: string, r: PhotoRow, v: Variant, f: Format): string {
  return `${restRoot}/rova-rental/v1/vehicles/${Number(r.vehicle_id)}/photos/${Number(r.id)}/${v}.${r.digest}.${f}`;
}

/** Photo row → API (allow-list: the storage id stays inside). */
export function photoView(restRoot: string, r: PhotoRow): PhotoView {
  const variant = (v: Variant) => ({
    width: r.variants[v].width,
    height: r.variants[v].height,
    webp: variantPath(restRoot, r, v, 'webp'),
    jpg: variantPath(restRoot, r, v, 'jpg'),
  });
  return {
    id: Number(r.id),
    position: r.position,
    alt: r.alt,
    width: r.width,
    height: r.height,
    variants: { thumb: variant('thumb'), card: variant('card'), detail: variant('detail') },
  };
}

/** Rows of several vehicles → views by vehicle id (each list cover first, as the rows come). */
export function photosByVehicle(restRoot: string, list: readonly PhotoRow[]): Map<number, PhotoView[]> {
  const out = new Map<number, PhotoView[]>();
  for (const r of list) {
    const id = Number(r.vehicle_id);
    let l = out.get(id);
    if (!l) out.set(id, (l = []));
    l.push(photoView(restRoot, r));
  }
  return out;
}
