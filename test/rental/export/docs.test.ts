import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { columnsTable } from '../../../src/modules/rental/export/docs.js';
import { EXPORT_TYPES } from '../../../src/modules/rental/export/registry.js';

describe('export columns are documented', () => {
  const readme = readFileSync('README.md', 'utf8');
  for (const t of EXPORT_TYPES) {
    it(`README lists the columns of ${t.name} exactly as the registry has them`, () => {
      expect(readme).toContain(`#### \`${t.name}\``);
      expect(readme).toContain(columnsTable(t));
    });
  }
});
