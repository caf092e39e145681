/** scripts/server-flags.mjs: the V8 flags of a serving Rova process. */
export declare const SERVER_NODE_FLAGS: readonly string[];
