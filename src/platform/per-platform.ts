import type { Platform } from './context.js';

/**
 * One instance per running app (tests run several apps in one process, so module-level singletons are out):
 * `const settingsOf = perPlatform((p) => loadSettings(p))`.
 */
export function perPlatform<T>(create: (platform: Platform) => T): (platform: Platform) => T {
  const instances = new WeakMap<Platform, T>();
  return (platform) => {
    let v = instances.get(platform);
    if (v === undefined) {
      v = create(platform);
      instances.set(platform, v);
    }
    return v;
  };
}
