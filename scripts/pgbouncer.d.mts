/** scripts/pgbouncer.mjs: a PgBouncer in transaction mode in front of a PostgreSQL server (Debian's pgbouncer). */
export declare function pgbouncerBinary(): string | null;
export declare function freePort(): Promise<number>;
export declare function startPgBouncer(
  serverUrl: string,
  options?: { poolSize?: number; maxServerConnections?: number },
): Promise<{ url: string; stop(): Promise<void> }>;
