import { describe, expect, it } from 'vitest';
import { localToUtc, utcToLocal } from '../../src/modules/rental/time.js';

const ZONES = [
  'Europe/Istanbul',
  'Europe/Berlin',
  'Pacific/Auckland',
  'Asia/Kathmandu',
  'Australia/Lord_Howe',
  'America/St_Johns',
  'America/Los_Angeles',
  'Pacific/Chatham',
];

// One formatter per zone: constructing an Intl.DateTimeFormat costs far more than formatting with it (52,000 of
// them took 74 s on a loaded 2-core machine and timed the file out).
const formatters = new Map<string, Intl.DateTimeFormat>();

/** The wall clock in `tz` straight from Intl (its formatter kept, no offset memo). */
function intlLocal(ms: number, tz: string): { date: string; time: string } {
  let f = formatters.get(tz);
  if (!f)
    formatters.set(
      tz,
      (f = new Intl.DateTimeFormat('en-CA', {
        timeZone: tz,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      })),
    );
  const p = Object.fromEntries(f.formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
  return { date: `${p.year}-${p.month}-${p.day}`, time: `${p.hour}:${p.minute}` };
}

describe('time zone conversion (memoised offsets)', () => {
  it('utcToLocal equals Intl for 20,000 instants around DST changes in zones with odd offsets', () => {
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 20_000; i++) {
      const tz = ZONES[i % ZONES.length]!;
      const ms = Date.UTC(2000, 0, 1) + Math.floor((rnd() * 40 * 365 * 86_400_000) / 60_000) * 60_000;
      expect(utcToLocal(new Date(ms), tz), `${tz} ${new Date(ms).toISOString()}`).toEqual(intlLocal(ms, tz));
    }
  });

  it('every minute across a spring-forward and a fall-back night round-trips', () => {
    for (const [tz, day] of [
      ['Europe/Berlin', '2026-03-29'],
      ['Europe/Berlin', '2026-10-25'],
      ['Australia/Lord_Howe', '2026-04-05'],
      ['Pacific/Auckland', '2026-09-27'],
    ] as const) {
      const start = Date.parse(`${day}T00:00:00Z`) - 86_400_000;
      for (let ms = start; ms < start + 2 * 86_400_000; ms += 60_000) {
        const local = utcToLocal(new Date(ms), tz);
        expect(local).toEqual(intlLocal(ms, tz));
        // a wall time that exists once maps back to its instant (ambiguous fall-back times map to one of the two)
        const back = localToUtc(local.date, local.time, tz).getTime();
        expect(intlLocal(back, tz)).toEqual(local);
      }
    }
  });
});
