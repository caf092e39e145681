import { describe, expect, it } from 'vitest';
import { columnsTable } from '../../../src/modules/rental/export/docs.js';
import { EXPORT_TYPES } from '../../../src/modules/rental/export/registry.js';
import { docPages } from '../../readme/pages.js';

describe('export columns are documented', () => {
  const page = docPages().find((p) => p.file === 'docs/integrators/rental-export.md')!.text;
  for (const t of EXPORT_TYPES) {
    it(`docs/integrators/rental-export.md lists the columns of ${t.name} exactly as the registry has them`, () => {
      expect(page).toContain(`### \`${t.name}\``);
      expect(page).toContain(columnsTable(t));
    });
  }
});
