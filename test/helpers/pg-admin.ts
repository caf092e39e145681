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

/** Creates database `name` (a copy of `template` when given); returns its URL and a function that drops it. */
export async function createDatabase(adminUrl: string, name: string, template?: string): Promise<{ url: string; drop: () => Promise<void> }> {
  await adminQuery(adminUrl, template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
  const u = new URL(adminUrl);
  u.pathname = '/' + name;
  return { url: u.toString(), drop: () => adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
