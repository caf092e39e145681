/** scripts/ports.mjs: a free port below the ephemeral range, for a server restarted on the same port. */
export declare function freeServerPort(): Promise<number>;
