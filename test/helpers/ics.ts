/**
 * Reads an iCalendar file back the way a calendar would, failing loudly on what RFC 5545 forbids: a line not ended by
 * CRLF, a physical line longer than 75 octets, components not nested, a VEVENT without UID/DTSTAMP/DTSTART.
 */
export interface ParsedIcs {
  /** Calendar properties (METHOD, VERSION, PRODID …). */
  calendar: Record<string, string>;
  /** The one VEVENT's properties, TEXT values unescaped; `params` keeps a property's parameters (ORGANIZER;CN=…). */
  event: Record<string, string>;
  params: Record<string, string>;
  /** The physical lines as written. */
  lines: string[];
}

export function parseIcs(ics: string): ParsedIcs {
  if (!ics.endsWith('\r\n')) throw new Error('an iCalendar file ends with CRLF');
  if (/[^\r]\n/.test(ics) || /\r[^\n]/.test(ics)) throw new Error('every line ends with CRLF, nothing else');
  const lines = ics.slice(0, -2).split('\r\n');
  for (const l of lines) {
    if (Buffer.byteLength(l, 'utf8') > 75) throw new Error(`line longer than 75 octets: ${l}`);
    if (l === '') throw new Error('empty line');
  }
  const logical: string[] = [];
  for (const l of lines) {
    if (l.startsWith(' ') || l.startsWith('\t')) {
      if (!logical.length) throw new Error('a continuation line first');
      logical[logical.length - 1] += l.slice(1);
    } else logical.push(l);
  }
  const stack: string[] = [];
  const calendar: Record<string, string> = {};
  const event: Record<string, string> = {};
  const params: Record<string, string> = {};
  let events = 0;
  for (const l of logical) {
    const colon = l.indexOf(':');
    if (colon < 1) throw new Error(`not a content line: ${l}`);
    const [name, ...ps] = l.slice(0, colon).split(';');
    const value = l.slice(colon + 1);
    if (name === 'BEGIN') {
      stack.push(value);
      if (value === 'VEVENT') events += 1;
      continue;
    }
    if (name === 'END') {
      if (stack.pop() !== value) throw new Error(`END:${value} closes nothing open`);
      continue;
    }
    const top = stack[stack.length - 1];
    if (top === 'VEVENT') {
      event[name!] = unescapeText(value);
      if (ps.length) params[name!] = ps.join(';');
    } else if (top === 'VCALENDAR') calendar[name!] = value;
    else throw new Error(`property outside a component: ${l}`);
  }
  if (stack.length) throw new Error(`not closed: ${stack.join(', ')}`);
  if (logical[0] !== 'BEGIN:VCALENDAR') throw new Error('starts with BEGIN:VCALENDAR');
  if (events !== 1) throw new Error(`one VEVENT, found ${events}`);
  for (const p of ['UID', 'DTSTAMP', 'DTSTART']) if (!(p in event)) throw new Error(`VEVENT without ${p}`);
  for (const p of ['VERSION', 'PRODID']) if (!(p in calendar)) throw new Error(`VCALENDAR without ${p}`);
  return { calendar, event, params, lines };
}

function unescapeText(v: string): string {
  return v.replace(/\\([\\;,nN])/g, (_, c: string) => (c === 'n' || c === 'N' ? '\n' : c));
}

/** `20270601T100000Z` → the instant. */
export function icsInstant(v: string): Date {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(v);
  if (!m) throw new Error(`not a UTC DATE-TIME: ${v}`);
  return new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!));
}
