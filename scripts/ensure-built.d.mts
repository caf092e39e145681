/** scripts/ensure-built.mjs: the repository's root, and dist/main.js (built first when older than the sources). */
export declare const root: string;
export declare const entry: string;
export declare function ensureBuilt(): string;
