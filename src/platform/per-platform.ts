import type { Platform } from './context.js';

/** An accessor of one instance per running app; `existing` answers without making one. */
export interface PerPlatform<T> {
  (platform: Platform): T;
  /** The instance if one was made for this app, else undefined (a stop must not build what never started). */
  existing(platform: Platform): T | undefined;
}

/**
 * One instance per running app (tests run several apps in one process, so module-level singletons are out):
 * `const settingsOf = perPlatform((p) => loadSettings(p))`. A module's runtime object (e.g. RentalRuntime) is one;
 * the parts it holds keep their own accessors, made with this too.
 */
export function perPlatform<T>(create: (platform: Platform) => T): PerPlatform<T> {
  const instances = new WeakMap<Platform, T>();
  const of = (platform: Platform): T => {
    let v = instances.get(platform);
    if (v === undefined) {
      v = create(platform);
      instances.set(platform, v);
    }
    return v;
  };
  return Object.assign(of, { existing: (platform: Platform) => instances.get(platform) });
}
