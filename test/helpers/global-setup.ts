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

interface Prepared {
  pgliteTemplate: string;
  rovaEntry: string;
  postgresTemplate: string;
  drop?: () => Promise<void>;
}

/** Shared by the run's projects (vitest calls a global setup once per project): one template, dropped once. */
const shared = globalThis as { rovaTestSetup?: { prepared: Promise<Prepared>; users: number } };

async function prepare(): Promise<Prepared> {
  const started = performance.now();
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const [template, entry] = await Promise.all([pgliteTemplateFile(), transpileForChildren(root)]);
  const pgUrl = process.env.ROVA_TEST_DATABASE_URL ?? '';
  const tpl = pgUrl ? await postgresTemplate(pgUrl) : undefined;
  if (process.env.ROVA_TEST_PROFILE)
    console.log(`setup: migrated templates ready in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return { pgliteTemplate: template, rovaEntry: entry, postgresTemplate: tpl?.name ?? '', drop: tpl?.drop };
}

/** Runs before any worker starts: the migrated templates the test apps copy. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  shared.rovaTestSetup ??= { prepared: prepare(), users: 0 };
  const state = shared.rovaTestSetup;
  state.users += 1;
  const p = await state.prepared;
  project.provide('pgliteTemplate', p.pgliteTemplate);
  project.provide('rovaEntry', p.rovaEntry);
  project.provide('postgresTemplate', p.postgresTemplate);
  return async () => {
    state.users -= 1;
    if (state.users === 0) {
      shared.rovaTestSetup = undefined;
      await p.drop?.();
    }
  };
}
