import type { RovaModule } from '../types.js';
import { importCommand } from './wordpress/cli.js';

/** Moving in from elsewhere: `rova import wordpress` (issue 24). No routes; a CLI command only. */
export const importModule: RovaModule = {
  name: 'import',
  commands: { import: importCommand },
};
