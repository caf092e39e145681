import type { TestProject } from 'vitest/node';
import { fileURLToPath } from 'node:url';
import { transpileForChildren } from './cli-build.js';
import { pgliteTemplateFile, postgresTemplate } from './db-template.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Path of the migrated PGlite dump every PGlite test app loads. */
    pgliteTemplate: string;
    /** Name of the migrated PostgreSQL database every PostgreSQL test app is created from ('' without PostgreSQL). */
    postgresTemplate: string;
    /** The CLI entry child processes run (.test-dist/main.js). */
    rovaEntry: string;
  }
}

/** Runs once per `vitest run`, before any worker starts: the migrated templates the test apps copy. */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const started = performance.now();
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const [template, entry] = await Promise.all([pgliteTemplateFile(), transpileForChildren(root)]);
  project.provide('pgliteTemplate', template);
  project.provide('rovaEntry', entry);
  const pgUrl = process.env.ROVA_TEST_DATABASE_URL ?? '';
  let teardown: (() => Promise<void>) | undefined;
  if (pgUrl) {
    const tpl = await postgresTemplate(pgUrl);
    project.provide('postgresTemplate', tpl.name);
    teardown = tpl.drop;
  } else {
    project.provide('postgresTemplate', '');
  }
  if (process.env.ROVA_TEST_PROFILE) console.log(`setup: migrated templates ready in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return teardown;
}
