import { SERVER_ENV, SERVER_NODE_FLAGS } from '../../scripts/server-flags.mjs';

/** `npm start`'s V8 flags, or BENCH_SERVER_FLAGS (space-separated) to try others in paired runs. */
export function benchServerFlags(): string[] {
  const tried = process.env.BENCH_SERVER_FLAGS;
  return tried === undefined ? [...SERVER_NODE_FLAGS] : tried.split(/\s+/).filter(Boolean);
}

/**
 * `npm start`'s environment (the malloc settings), each overridden by the bench's own, as an operator's would be; set
 * empty (`MALLOC_TRIM_THRESHOLD_=`), it is left out, to measure without it (glibc would read an empty value as 0).
 */
export function benchServerEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(SERVER_ENV)) {
    const own = process.env[k];
    if (own !== '') env[k] = own ?? v;
  }
  return env;
}

/** The bench's own environment without the settings benchServerEnv() decides. */
export function benchOwnEnv(): Record<string, string | undefined> {
  const env = { ...process.env };
  for (const k of Object.keys(SERVER_ENV)) delete env[k];
  return env;
}
