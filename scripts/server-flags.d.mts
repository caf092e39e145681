/** scripts/server-flags.mjs: the V8 flags of a serving Rova process. */
export declare const SERVER_NODE_FLAGS: readonly string[];
/** scripts/server-flags.mjs: the environment a serving Rova process starts with (glibc's malloc arenas). */
export declare const SERVER_ENV: Readonly<Record<string, string>>;
