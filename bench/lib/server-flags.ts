import { SERVER_ENV, SERVER_NODE_FLAGS } from '../../scripts/server-flags.mjs';

/** `npm start`'s V8 flags, or BENCH_SERVER_FLAGS (space-separated) to try others in paired runs. */
export function benchServerFlags(): string[] {
  const tried = process.env.BENCH_SERVER_FLAGS;
  return tried === undefined ? [...SERVER_NODE_FLAGS] : tried.split(/\s+/).filter(Boolean);
}

/**
 * `base` with `npm start`'s environment (the malloc settings) over it, each overridden by the bench's own, as an
 * operator's would be; set empty (`MALLOC_TRIM_THRESHOLD_=`), it is left out, to measure without it (glibc would read
 * an empty value as 0).
 */
export function benchServerEnv(base: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env = { ...base };
  for (const [k, v] of Object.entries(SERVER_ENV)) {
    const own = process.env[k];
    if (own === '') delete env[k];
    else env[k] = own ?? v;
  }
  return env;
}
