import { describe, expect, it } from 'vitest';
import { foldLine, icsCalendar, icsText } from '../../src/platform/mail/ics.js';
import { icsInstant, parseIcs } from '../helpers/ics.js';

const base = {
  uid: 'RV-ABC123@rent.example.test',
  sequence: 7,
  start: new Date('2027-06-01T08:00:00Z'),
  end: new Date('2027-06-04T08:00:00Z'),
  stamp: new Date('2026-11-27T10:11:12.345Z'),
  summary: 'Rova: Fiat Egea (RV-ABC123)',
  status: 'CONFIRMED' as const,
};

describe('iCalendar event (RFC 5545)', () => {
  it('one VEVENT in a VCALENDAR, CRLF lines, UTC times, METHOD:PUBLISH; reads back the same', () => {
    const ics = icsCalendar({
      ...base,
      location: 'Istanbul Airport, Terminal 1; Arrivals',
      url: 'https://x.test/a?b=1',
    });
    expect(ics.startsWith('BEGIN:VCALENDAR\r\nVERSION:2.0\r\n')).toBe(true);
    const p = parseIcs(ics);
    expect(p.calendar).toMatchObject({ VERSION: '2.0', METHOD: 'PUBLISH', CALSCALE: 'GREGORIAN' });
    expect(p.event).toMatchObject({
      UID: 'RV-ABC123@rent.example.test',
      SEQUENCE: '7',
      DTSTAMP: '20261127T101112Z',
      DTSTART: '20270601T080000Z',
      DTEND: '20270604T080000Z',
      SUMMARY: 'Rova: Fiat Egea (RV-ABC123)',
      LOCATION: 'Istanbul Airport, Terminal 1; Arrivals',
      URL: 'https://x.test/a?b=1',
      STATUS: 'CONFIRMED',
    });
    expect(icsInstant(p.event.DTSTART!).toISOString()).toBe('2027-06-01T08:00:00.000Z');
    // the raw line has its comma and semicolon escaped
    expect(p.lines).toContain('LOCATION:Istanbul Airport\\, Terminal 1\\; Arrivals');
  });

  it('cancelled: METHOD:CANCEL, STATUS:CANCELLED, the attendee named', () => {
    const p = parseIcs(
      icsCalendar({
        ...base,
        status: 'CANCELLED',
        organizer: { name: 'Rova "Shop"', email: 'shop@example.test' },
        attendee: { name: 'Ada', email: 'ada@example.test' },
      }),
    );
    expect(p.calendar.METHOD).toBe('CANCEL');
    expect(p.event.STATUS).toBe('CANCELLED');
    expect(p.event.ORGANIZER).toBe('mailto:shop@example.test');
    expect(p.params.ORGANIZER).toBe('CN="Rova Shop"');
    expect(p.event.ATTENDEE).toBe('mailto:ada@example.test');
  });

  it('folds lines at 75 octets without splitting a UTF-8 character; escapes backslash, comma, semicolon, newline', () => {
    const long = 'Übergabe am Flughafen İstanbul, Terminal 1; Ausgang 3 \\ Schalter — ' + 'ğüşöç'.repeat(30);
    const ics = icsCalendar({ ...base, description: `${long}\nzweite Zeile` });
    const p = parseIcs(ics); // throws on a line over 75 octets
    expect(p.event.DESCRIPTION).toBe(`${long}\nzweite Zeile`);
    const folded = p.lines.filter((l) => l.startsWith(' '));
    expect(folded.length).toBeGreaterThan(3);
    // every line but the last of a folded property is filled to within a character of 75 octets
    const i = p.lines.findIndex((l) => l.startsWith('DESCRIPTION:'));
    expect(Buffer.byteLength(p.lines[i]!, 'utf8')).toBeGreaterThanOrEqual(74);
    expect(Buffer.byteLength(p.lines[i]!, 'utf8')).toBeLessThanOrEqual(75);
    expect(Buffer.from(ics, 'utf8').toString('utf8')).toBe(ics); // no broken character
    expect(icsText('a\\b,c;d\r\ne')).toBe('a\\\\b\\,c\\;d\\ne');
    expect(foldLine('x'.repeat(75))).toBe('x'.repeat(75));
    expect(foldLine('x'.repeat(76))).toBe(`${'x'.repeat(75)}\r\n x`);
    expect(foldLine('x'.repeat(74) + 'ü')).toBe(`${'x'.repeat(74)}\r\n ü`); // ü is 2 octets: 76 would be too many
  });

  it('an ASCII line folds as a UTF-8 one would: 75 octets, then a space and 74 more per line', () => {
    const line = `DESCRIPTION:${'abcdefghij'.repeat(20)}`; // 212 octets
    const folded = foldLine(line);
    expect(folded.split('\r\n').map((l) => l.length)).toEqual([75, 75, 64]);
    expect(
      folded
        .split('\r\n')
        .slice(1)
        .every((l) => l.startsWith(' ')),
    ).toBe(true);
    expect(folded.replace(/\r\n /g, '')).toBe(line);
    expect(foldLine('x'.repeat(149))).toBe(`${'x'.repeat(75)}\r\n ${'x'.repeat(74)}`);
    expect(foldLine('x'.repeat(150))).toBe(`${'x'.repeat(75)}\r\n ${'x'.repeat(74)}\r\n x`);
  });
});
