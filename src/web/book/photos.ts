/** Vehicle photos in the widget: the cover on a result card, a gallery on the vehicle's detail. */
import type { SearchItem } from './api-types.js';
import { h } from './dom.js';
import type { I18n } from './i18n/index.js';

export type Photo = SearchItem['photos'][number];
type Size = 'thumb' | 'card' | 'detail';

/**
 * The API answers paths under its own origin; the widget may run on the shop's, so they are resolved against the API
 * root (itself absolute, or relative to the page: `data-api="/wp-json"`).
 */
const abs = (root: string, path: string) => new URL(path, new URL(root, document.baseURI)).href;

/**
 * A photo as `<picture>`: WebP where the browser takes it, else JPEG; the smaller sizes in srcset so a phone loads
 * the card size, not the detail; width and height reserve the space (no layout shift); loaded when scrolled near.
 */
export function picture(root: string, p: Photo, sizes: Size[], sizesAttr: string, alt: string): HTMLElement {
  const set = (f: 'webp' | 'jpg') =>
    sizes.map((s) => `${abs(root, p.variants[s][f])} ${p.variants[s].width}w`).join(', ');
  const big = p.variants[sizes[sizes.length - 1]!];
  return h(
    'picture',
    {},
    h('source', { type: 'image/webp', srcset: set('webp'), sizes: sizesAttr }),
    h('img', {
      src: abs(root, big.jpg),
      srcset: set('jpg'),
      sizes: sizesAttr,
      width: big.width,
      height: big.height,
      alt,
      loading: 'lazy',
      decoding: 'async',
    }),
  );
}

/** The result card's cover (its first photo), or null when the vehicle has none. */
export function cover(root: string, photos: Photo[] | undefined, name: string): HTMLElement | null {
  const p = photos?.[0];
  return p
    ? h(
        'div',
        { class: 'cover' },
        picture(root, p, ['thumb', 'card'], '(max-width: 30rem) 100vw, 20rem', p.alt || name),
      )
    : null;
}

/** The photo each gallery shows, kept across the widget's re-renders (same list object while the vehicle is shown). */
const shown = new WeakMap<Photo[], number>();

/**
 * The detail's gallery: one large photo and a row of thumbnail buttons (Tab to them, Enter or Space shows that
 * photo; the shown one is aria-pressed). One photo: no buttons.
 */
export function gallery(root: string, photos: Photo[] | undefined, name: string, i18n: I18n): HTMLElement | null {
  if (!photos?.length) return null;
  const { t } = i18n;
  const main = h('div', { class: 'shown', 'data-f': 'photo' });
  const buttons: HTMLButtonElement[] = [];
  const show = (i: number) => {
    shown.set(photos, i);
    const p = photos[i]!;
    main.replaceChildren(picture(root, p, ['card', 'detail'], '(max-width: 46rem) 100vw, 46rem', p.alt || name));
    buttons.forEach((b, j) => b.setAttribute('aria-pressed', String(i === j)));
  };
  if (photos.length > 1)
    photos.forEach((p, i) =>
      buttons.push(
        h(
          'button',
          {
            type: 'button',
            class: 'thumb',
            'aria-label': t('showPhoto', { n: i + 1, total: photos.length }),
            on: { click: () => show(i) },
          },
          h('img', {
            src: abs(root, p.variants.thumb.jpg),
            width: p.variants.thumb.width,
            height: p.variants.thumb.height,
            alt: '',
            loading: 'lazy',
          }),
        ),
      ),
    );
  show(Math.min(shown.get(photos) ?? 0, photos.length - 1));
  return h(
    'section',
    { class: 'gallery', 'aria-label': t('photosOf', { name }) },
    main,
    buttons.length ? h('div', { class: 'thumbs' }, buttons) : null,
  );
}
