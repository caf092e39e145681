import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { fxModule } from '../../src/modules/fx/index.js';
import { rentalModule } from '../../src/modules/rental/module.js';
import { platformModule } from '../../src/platform/module.js';
import { rovaSync, tempDirs } from './spawn.js';

const tmp = tempDirs();
afterAll(() => tmp.cleanup());

const LINE = /^rova: configuration error: (\S+) .*\n$/;

/** Core settings (loadConfig) and module settings (checkConfig), as the CLI validates them before anything starts. */
function check(env: Record<string, string>): void {
  const config = loadConfig(env, { ephemeral: true, isTty: false });
  for (const m of [platformModule, rentalModule, fxModule]) m.checkConfig?.(config);
}

describe('every setting is validated at start', () => {
  it.each([
    [{ RENTAL_MIN_DAYS: 'abc' }, 'RENTAL_MIN_DAYS'],
    [{ RENTAL_MIN_DAYS: '0' }, 'RENTAL_MIN_DAYS'],
    [{ RENTAL_MIN_DAYS: '1.5' }, 'RENTAL_MIN_DAYS'],
    [{ RENTAL_MIN_DAYS: '10', RENTAL_MAX_DAYS: '5' }, 'RENTAL_MIN_DAYS'],
    [{ RENTAL_MAX_DAYS: '1e3' }, 'RENTAL_MAX_DAYS'],
    [{ RENTAL_BUFFER_MINUTES: '-1' }, 'RENTAL_BUFFER_MINUTES'],
    [{ RENTAL_GRACE_MINUTES: 'soon' }, 'RENTAL_GRACE_MINUTES'],
    [{ RENTAL_PAYMENT_DEADLINE_MINUTES: '0' }, 'RENTAL_PAYMENT_DEADLINE_MINUTES'],
    [{ RENTAL_MIN_NOTICE_HOURS: '' + Number.MAX_VALUE }, 'RENTAL_MIN_NOTICE_HOURS'],
    [{ RENTAL_PUBLIC_RATE_LIMIT: '0' }, 'RENTAL_PUBLIC_RATE_LIMIT'],
    [{ RENTAL_WRITE_RATE_LIMIT: 'x' }, 'RENTAL_WRITE_RATE_LIMIT'],
    [{ FX_CONVERT_RATE_LIMIT: 'many' }, 'FX_CONVERT_RATE_LIMIT'],
    [{ FX_CONVERT_RATE_WINDOW: '-5' }, 'FX_CONVERT_RATE_WINDOW'],
    [{ FX_RATE_TIMEOUT_MS: '0' }, 'FX_RATE_TIMEOUT_MS'],
    [{ FX_EXCHANGERATE_API_URL: 'ftp://rates.example' }, 'FX_EXCHANGERATE_API_URL'],
    [{ FX_ECB_URL: 'http://' }, 'FX_ECB_URL'],
    [{ FX_GEO_HEADERS: 'CF-IPCountry, bad header' }, 'FX_GEO_HEADERS'],
    [{ GEOIP_DB: '/nonexistent/country.mmdb' }, 'GEOIP_DB'],
    [{ HOST: 'my host' }, 'HOST'],
    [{ REDIS_PREFIX: 'has space' }, 'REDIS_PREFIX'],
    [{ LOG_FORMAT: 'xml' }, 'LOG_FORMAT'],
    [{ METRICS: 'maybe' }, 'METRICS'],
    [{ METRICS: 'token' }, 'METRICS'],
    [{ METRICS_TOKEN: 'short' }, 'METRICS_TOKEN'],
    [{ SHUTDOWN_TIMEOUT_MS: 'later' }, 'SHUTDOWN_TIMEOUT_MS'],
    [{ BOOKING_HOLD_MINUTES: 'abc' }, 'BOOKING_HOLD_MINUTES'],
    [{ BOOKING_FREE_CANCEL_HOURS: '-1' }, 'BOOKING_FREE_CANCEL_HOURS'],
    [{ BOOKING_CANCEL_FEE_PERCENT: 'ten' }, 'BOOKING_CANCEL_FEE_PERCENT'],
    [{ BOOKING_BATCHING: 'sometimes' }, 'BOOKING_BATCHING'],
    [{ JWT_ACCESS_TTL_SECONDS: '999999' }, 'JWT_ACCESS_TTL_SECONDS'],
    [{ JWT_AUDIENCE: 'has space' }, 'JWT_AUDIENCE'],
    [{ ROVA_STRICT_METHODS: 'maybe' }, 'ROVA_STRICT_METHODS'],
    [{ SMTP_URL: 'http://mail.example.com' }, 'SMTP_URL'],
    [{ ROVA_PAYOUT_WEBHOOK_SECRET: 'not-a-secret' }, 'ROVA_PAYOUT_WEBHOOK_SECRET'],
  ])('refuses %o naming %s', (env, name) => {
    let err: unknown;
    try {
      check(env);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message.startsWith(name + ' ') || (err as Error).message.startsWith(name + ':')).toBe(true);
  });

  it('accepts good values and applies the defaults', () => {
    expect(() =>
      check({
        RENTAL_MIN_DAYS: '2',
        RENTAL_MAX_DAYS: '60',
        FX_RATE_TIMEOUT_MS: '2500',
        FX_GEO_HEADERS: 'none',
        HOST: '::',
        METRICS: 'public',
      }),
    ).not.toThrow();
    const c = loadConfig({ METRICS_TOKEN: 'a'.repeat(24) }, { ephemeral: true, isTty: false });
    expect(c.metrics).toEqual({ mode: 'token', token: 'a'.repeat(24) });
    expect(c.logFormat).toBe('json');
    expect(loadConfig({}, { ephemeral: true, isTty: true }).logFormat).toBe('pretty');
    expect(loadConfig({ LOG_FORMAT: 'JSON' }, { ephemeral: true, isTty: true }).logFormat).toBe('json');
    expect(loadConfig({}, { ephemeral: true }).metrics).toEqual({ mode: 'off', token: null });
    expect(loadConfig({}, { ephemeral: true }).shutdownTimeoutMs).toBe(10_000);
  });
});

describe('a bad setting stops the process: exit 2, one line, the same format', () => {
  it.each([
    [['serve'], { RENTAL_MIN_DAYS: 'abc' }, 'RENTAL_MIN_DAYS'],
    [['serve'], { FX_RATE_TIMEOUT_MS: 'soon' }, 'FX_RATE_TIMEOUT_MS'],
    [['serve'], { LOG_FORMAT: 'xml' }, 'LOG_FORMAT'],
    [['migrate'], { RENTAL_MAX_DAYS: '-1' }, 'RENTAL_MAX_DAYS'],
    [['rates', 'sync'], { FX_ECB_URL: 'file:///etc/passwd' }, 'FX_ECB_URL'],
  ])(
    'rova %j with %o',
    (args, env, name) => {
      const dataDir = tmp.make();
      const r = rovaSync(args, { ...env, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent' });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(LINE);
      expect(LINE.exec(r.stderr)?.[1]).toBe(name);
      expect(r.stdout).toBe('');
    },
    120_000,
  );
});
