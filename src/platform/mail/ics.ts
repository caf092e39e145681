/**
 * iCalendar (RFC 5545) for mail attachments: one VEVENT in a VCALENDAR. Lines end in CRLF and are folded at 75
 * octets (a fold never splits a UTF-8 character); TEXT values are escaped (backslash, semicolon, comma, newline).
 */

export interface IcsEvent {
  /** Stable for the thing the event is about: a calendar replaces the event of the same UID. */
  uid: string;
  /** Raised whenever the event changes, so a calendar takes the newer copy (RFC 5545 §3.8.7.4). */
  sequence: number;
  start: Date;
  end: Date;
  /** When this copy was written. */
  stamp: Date;
  summary: string;
  location?: string;
  description?: string;
  url?: string;
  /** `mailto:` address of the sender (RFC 5546 wants one for CANCEL). */
  organizer?: { name: string; email: string };
  /** The customer, named on a cancellation (RFC 5546 CANCEL). */
  attendee?: { name: string; email: string };
  /** CANCELLED: the event is withdrawn (METHOD:CANCEL); otherwise published (METHOD:PUBLISH). */
  status: 'TENTATIVE' | 'CONFIRMED' | 'CANCELLED';
}

/** `2027-06-01T10:00:00Z` → `20270601T100000Z` (UTC form, §3.3.5). */
export function icsUtc(d: Date): string {
  return d
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/[-:]/g, '');
}

/** A TEXT value (§3.3.11): `\` `;` `,` escaped, newlines as `\n`. */
export function icsText(s: string): string {
  return s
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n');
}

/** A parameter value (§3.2): quoted, without the characters a quoted value may not hold. */
function paramText(s: string): string {
  return `"${s.replace(/["\r\n]/g, '')}"`;
}

/** One content line folded at 75 octets (§3.1): continuation lines start with a space. */
export function foldLine(line: string): string {
  // ASCII, one octet a character (nearly every line): fold by slicing instead of measuring each character — a
  // booking's mail renders its .ics inside the booking's write, and the per-character walk showed in its profile
  if (Buffer.byteLength(line, 'utf8') === line.length) {
    if (line.length <= 75) return line;
    const parts = [line.slice(0, 75)];
    for (let i = 75; i < line.length; i += 74) parts.push(` ${line.slice(i, i + 74)}`);
    return parts.join('\r\n');
  }
  const out: string[] = [];
  let cur = '';
  let octets = 0;
  let limit = 75;
  for (const ch of line) {
    const n = Buffer.byteLength(ch, 'utf8');
    if (octets + n > limit) {
      out.push(cur);
      cur = ' ';
      octets = 1;
      limit = 75;
    }
    cur += ch;
    octets += n;
  }
  out.push(cur);
  return out.join('\r\n');
}

/** The .ics file of `e`. */
export function icsCalendar(e: IcsEvent, prodId = '-//Rova//Rova bookings//EN'): string {
  const cancel = e.status === 'CANCELLED';
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:${prodId}`,
    'CALSCALE:GREGORIAN',
    `METHOD:${cancel ? 'CANCEL' : 'PUBLISH'}`,
    'BEGIN:VEVENT',
    `UID:${e.uid}`,
    `SEQUENCE:${e.sequence}`,
    `DTSTAMP:${icsUtc(e.stamp)}`,
    `DTSTART:${icsUtc(e.start)}`,
    `DTEND:${icsUtc(e.end)}`,
    `SUMMARY:${icsText(e.summary)}`,
  ];
  if (e.location) lines.push(`LOCATION:${icsText(e.location)}`);
  if (e.description) lines.push(`DESCRIPTION:${icsText(e.description)}`);
  if (e.url) lines.push(`URL:${e.url}`);
  if (e.organizer) lines.push(`ORGANIZER;CN=${paramText(e.organizer.name)}:mailto:${e.organizer.email}`);
  if (e.attendee && cancel) lines.push(`ATTENDEE;CN=${paramText(e.attendee.name)}:mailto:${e.attendee.email}`);
  lines.push(`STATUS:${e.status}`, 'TRANSP:OPAQUE', 'END:VEVENT', 'END:VCALENDAR');
  return lines.map(foldLine).join('\r\n') + '\r\n';
}
