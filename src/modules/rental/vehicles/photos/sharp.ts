import type sharpModule from 'sharp';

export type Sharp = typeof sharpModule;

let loading: Promise<Sharp> | undefined;

/**
 * sharp (libvips) is loaded on the first photo a node handles, not at start: loading it costs ~26 MB of resident
 * memory and its own threads, which a node that never sees a photo (most of them, most of the time) should not pay.
 * Its operation cache is off: every photo is decoded once and its variants made once, so a cache only holds memory.
 */
export function loadSharp(): Promise<Sharp> {
  loading ??= import('sharp').then((m) => {
    m.default.cache(false);
    return m.default;
  });
  return loading;
}
