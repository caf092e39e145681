import pg from 'pg';

/** Runs one statement on the admin connection (CREATE/DROP DATABASE cannot run inside a transaction or a pool). */
export async function adminQuery(adminUrl: string, text: string): Promise<void> {
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  try {
    await c.query(text);
  } finally {
    await c.end();
  }
}

/**
 * ROVA_TEST_POOLER_URL (`npm run test:integration -- --pgbouncer` sets it): the apps' connections go through that
 * PgBouncer in transaction mode; administration (CREATE/DROP DATABASE, the template's migration) stays direct.
 */
export const TEST_POOLER = process.env.ROVA_TEST_POOLER_URL ?? '';

/** The URL an app uses for database `name`: through the pooler when the run has one, else the admin server. */
export function appDatabaseUrl(adminUrl: string, name: string): string {
  const u = new URL(adminUrl);
  if (TEST_POOLER) {
    const p = new URL(TEST_POOLER);
    u.hostname = p.hostname;
    u.port = p.port;
  }
  u.pathname = '/' + name;
  return u.toString();
}

/**
 * Creates database `name` (a copy of `template` when given); returns the URL apps use (through the pooler when there
 * is one), the direct URL and a function that drops it.
 */
export async function createDatabase(
  adminUrl: string,
  name: string,
  template?: string,
): Promise<{ url: string; directUrl: string; drop: () => Promise<void> }> {
  await adminQuery(adminUrl, template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
  const direct = new URL(adminUrl);
  direct.pathname = '/' + name;
  return {
    url: appDatabaseUrl(adminUrl, name),
    directUrl: direct.toString(),
    drop: () => adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}
