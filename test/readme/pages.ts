import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The documentation: README.md and every page under docs/. Their examples run in this order, in one shell, so a
 * page may use what an earlier page created (a user, a key, `$CK`/`$CS`). Every Markdown file under docs/ must be
 * listed here (a test says which is missing), so a new page's examples cannot be left out by accident.
 */
export const DOC_PAGES = [
  'README.md',
  'docs/README.md',
  'docs/operators/install.md',
  'docs/operators/configuration.md',
  'docs/integrators/authentication.md',
  'docs/integrators/rova-v1.md',
  'docs/integrators/webhooks.md',
  'docs/integrators/errors.md',
  'docs/operators/resilience.md',
  'docs/operators/cli.md',
  'docs/operators/production.md',
  'docs/operators/several-nodes.md',
  'docs/operators/backups.md',
  'docs/operators/upgrading.md',
  'docs/operators/container.md',
  'docs/integrators/extensions.md',
  'docs/integrators/wc-v3.md',
  'docs/integrators/rova-fx-v1.md',
  'docs/integrators/storefront-scripts.md',
  'docs/integrators/widget.md',
  'docs/integrators/rova-rental-v1.md',
  'docs/integrators/rental-export.md',
  'docs/operators/import-wordpress.md',
  'docs/integrators/marketplace.md',
  'docs/integrators/rova-rental-v2.md',
  'docs/staff/admin-app.md',
  'docs/staff/vendor-portal.md',
  'docs/contributors/architecture.md',
  'docs/contributors/conventions.md',
  'docs/contributors/testing.md',
  'docs/contributors/performance.md',
] as const;

export const ROOT = path.resolve(import.meta.dirname, '../..');

export interface DocPage {
  /** Path from the repository root, e.g. `docs/operators/production.md`. */
  file: string;
  text: string;
}

export function docPages(): DocPage[] {
  return DOC_PAGES.map((file) => ({ file, text: readFileSync(path.join(ROOT, file), 'utf8') }));
}

/** Every page's text, one after the other: for checks that a setting or a table is documented somewhere. */
export function allDocs(): string {
  return docPages()
    .map((p) => p.text)
    .join('\n');
}

/** Every `.md` file under docs/, as paths from the repository root. */
export function markdownUnderDocs(dir = path.join(ROOT, 'docs')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return markdownUnderDocs(full);
    return e.name.endsWith('.md') ? [path.relative(ROOT, full).split(path.sep).join('/')] : [];
  });
}
