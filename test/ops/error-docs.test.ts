import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fxErrorCatalogue } from '../../src/modules/fx/errors.js';
import { rentalErrorCatalogue } from '../../src/modules/rental/errors.js';
import { storeErrorCatalogue } from '../../src/modules/store/errors.js';
import { rovaErrorCatalogue } from '../../src/platform/errors.js';
import { sharedErrorCatalogue } from '../../src/platform/http/errors.js';
import type { ErrorCatalogue } from '../../src/platform/http/errors.js';

const DOC = readFileSync(new URL('../../docs/integrators/errors.md', import.meta.url), 'utf8');

/** `status code` of every row of the table under `### <namespace>` in the errors page. */
function documented(namespace: string): string[] {
  const at = DOC.indexOf(`### \`${namespace}\``);
  if (at < 0) return [];
  const section = DOC.slice(at).split(/\n#{2,3} /)[0] ?? '';
  return [...section.matchAll(/^\| (\d{3}) \| `([^`]+)` \|/gm)].map((m) => `${m[1]} ${m[2]}`);
}

const catalogues: ErrorCatalogue[] = [
  sharedErrorCatalogue,
  rovaErrorCatalogue,
  storeErrorCatalogue,
  fxErrorCatalogue,
  rentalErrorCatalogue,
];

describe('the errors page lists every catalogue entry', () => {
  for (const c of catalogues) {
    it(`${c.namespace}: one row per code, no row without an entry`, () => {
      const own = [
        ...new Set(
          Object.values(c.kinds)
            .filter((k) => k.code !== undefined)
            .map((k) => `${k.status} ${k.code}`),
        ),
      ].sort();
      expect(documented(c.namespace).sort()).toEqual(own);
    });
  }
});
