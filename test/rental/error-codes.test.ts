import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rentalErrorCatalogue } from '../../src/modules/rental/errors.js';

/** Design §1: the only (status, error_code) pairs of the rental namespace; 503 is the health check's degraded answer. */
const TABLE: Record<string, number> = {
  INVALID_PARAMS: 400,
  INVALID_DATE_RANGE: 400,
  AUTH_REQUIRED: 401,
  PERMISSION_DENIED: 403,
  RESOURCE_NOT_FOUND: 404,
  VEHICLE_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  STATE_CONFLICT: 409,
  VEHICLE_NOT_AVAILABLE: 409,
  RATE_LIMIT_EXCEEDED: 429,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
};

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) return f === 'admin' ? [] : files(p);
    return p.endsWith('.ts') ? [p] : [];
  });
}

describe('rental error codes', () => {
  it('every HttpError thrown by the core uses a (status, code) pair of the design §1 table', () => {
    const found: string[] = [];
    for (const f of files('src/modules/rental')) {
      const src = readFileSync(f, 'utf8');
      // the catalogue's entries (errorKind) and any literal HttpError left
      for (const m of src.matchAll(/(?:HttpError|errorKind)\(\s*(\d{3}),\s*'([A-Z_]+)'/g)) {
        found.push(`${m[1]} ${m[2]}`);
        expect(TABLE[m[2]!], `${f}: ${m[2]}`).toBe(Number(m[1]));
      }
      for (const m of src.matchAll(/error_code: '([A-Z_]+)'/g)) expect(TABLE, `${f}: ${m[1]}`).toHaveProperty(m[1]!);
    }
    expect(found.length).toBeGreaterThanOrEqual(Object.keys(rentalErrorCatalogue.kinds).length);
  });

  it('every entry of the rova-rental catalogue is a (status, code) pair of the table', () => {
    const kinds = Object.entries(rentalErrorCatalogue.kinds);
    expect(kinds.length).toBeGreaterThanOrEqual(10);
    for (const [name, k] of kinds) {
      // an entry without a code answers with the namespace's default code for its status (in the table too)
      if (k.code !== undefined) expect(TABLE[k.code], `${name}: ${k.code}`).toBe(k.status);
      else expect(Object.values(TABLE), name).toContain(k.status);
      expect(k.description, name).not.toBe('');
    }
  });
});
