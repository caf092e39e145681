import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Platform } from '../../../platform/context.js';
import { rows } from '../../../platform/db/types.js';
import { catalogueChanged } from '../catalogue.js';
import { addPhotos } from '../vehicles/photos/service.js';
import { loadSharp } from '../vehicles/photos/sharp.js';

const PAINT = ['#c0392b', '#2e86de', '#27ae60', '#f39c12', '#8e44ad', '#34495e', '#d35400', '#16a085', '#7f8c8d'];
const SKY = [
  ['#dfeefb', '#f7fbff'],
  ['#fdebd3', '#fff8ef'],
  ['#e4f3e9', '#f8fffa'],
];

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * A picture of a car in its own colour with its name, drawn as SVG (deterministic: the same vehicle always gets the
 * same picture). `view` 0 is the side view, 1 the same car from further away on another background.
 */
export function demoCarSvg(name: string, category: string, view: 0 | 1): string {
  const h = createHash('sha256').update(name).digest();
  const paint = PAINT[h[0]! % PAINT.length]!;
  const [top, bottom] = SKY[(h[1]! + view) % SKY.length]!;
  const tall = category === 'suv' || category === 'van' ? 40 : 0;
  const scale = view === 0 ? 1 : 0.72;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="960" height="640" viewBox="0 0 960 640">
  <defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${top}"/><stop offset="1" stop-color="${bottom}"/></linearGradient></defs>
  <rect width="960" height="640" fill="url(#sky)"/>
  <rect y="470" width="960" height="170" fill="#cfd4dc"/>
  <rect y="540" width="960" height="8" fill="#ffffff" opacity=".7"/>
  <g transform="translate(${480 - 380 * scale} ${470 - 250 * scale}) scale(${scale})">
    <ellipse cx="380" cy="252" rx="360" ry="16" fill="#000" opacity=".18"/>
    <path d="M40 200 Q40 150 90 140 L200 ${125 - tall} Q250 ${60 - tall} 330 ${58 - tall} L480 ${58 - tall} Q560 ${60 - tall} 610 ${125 - tall} L690 140 Q740 150 740 200 L740 222 L40 222 Z" fill="${paint}"/>
    <path d="M225 ${128 - tall} Q262 ${78 - tall} 335 ${76 - tall} L380 ${76 - tall} L380 ${128 - tall} Z M400 ${76 - tall} L475 ${76 - tall} Q540 ${78 - tall} 585 ${128 - tall} L400 ${128 - tall} Z" fill="#dbe9f6" opacity=".9"/>
    <rect x="690" y="160" width="40" height="16" rx="6" fill="#fff3b0"/>
    <rect x="48" y="160" width="28" height="14" rx="5" fill="#e74c3c"/>
    <circle cx="190" cy="222" r="54" fill="#222"/><circle cx="190" cy="222" r="24" fill="#aab2bd"/>
    <circle cx="590" cy="222" r="54" fill="#222"/><circle cx="590" cy="222" r="24" fill="#aab2bd"/>
  </g>
  <text x="48" y="96" font-family="DejaVu Sans, Arial, sans-serif" font-size="56" font-weight="700" fill="#1f2330">${esc(name)}</text>
  <text x="48" y="146" font-family="DejaVu Sans, Arial, sans-serif" font-size="30" fill="#4b5563">${esc(category)}</text>
</svg>`;
}

/**
 * Demo photos (issue 36.2): every demo and marketplace-demo vehicle without photos gets a drawn picture (the first
 * three a second one), stored like an upload (variants, shared storage). Idempotent; a few seconds in all.
 */
export async function seedDemoPhotos(p: Platform): Promise<void> {
  const cars = await rows<{ id: string; name: string; category: string }>(
    p.db,
    sql`SELECT v.id, v.name, v.category FROM rental_vehicles v
        WHERE (v.slug LIKE 'demo-%' OR v.slug LIKE 'market-%')
          AND NOT EXISTS (SELECT 1 FROM rental_vehicle_photos ph WHERE ph.vehicle_id = v.id)
        ORDER BY v.id`,
  );
  if (cars.length === 0) return;
  // two cars at a time (the machine's cores); the first three get a second picture, so the demo shows a gallery
  for (let i = 0; i < cars.length; i += 2)
    await Promise.all(cars.slice(i, i + 2).map((c, j) => seedOne(p, c, i + j < 3)));
  await catalogueChanged(p);
}

async function seedOne(p: Platform, c: { id: string; name: string; category: string }, two: boolean): Promise<void> {
  const views: (0 | 1)[] = two ? [0, 1] : [0];
  const sharp = await loadSharp();
  // PNG without compression: it is decoded again at once, so time spent compressing it would be wasted
  const pictures = await Promise.all(
    views.map((view) =>
      sharp(Buffer.from(demoCarSvg(c.name, c.category, view)))
        .png({ compressionLevel: 0 })
        .toBuffer(),
    ),
  );
  await addPhotos(
    p,
    { kind: 'seed' },
    Number(c.id),
    pictures.map((data, i) => ({ data, alt: i === 0 ? `${c.name}, side view` : `${c.name} on the road` })),
  );
}
