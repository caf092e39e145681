/** A deployment setting is missing or wrong: the process exits 2 with this one-line message. */
export class ConfigError extends Error {}
