/**
 * PHP's serialize() format, read without running anything: scalars, arrays and objects (an object becomes a plain
 * record of its properties; the class name is dropped). String lengths are byte counts of the UTF-8 text, as PHP
 * writes them. Anything malformed throws PhpUnserializeError and nothing else.
 */
export type PhpValue = null | boolean | number | string | PhpValue[] | PhpRecord;
export interface PhpRecord {
  [key: string]: PhpValue;
}

export class PhpUnserializeError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(`${message} at byte ${offset}`);
    this.name = 'PhpUnserializeError';
  }
}

const MAX_DEPTH = 64;

class Reader {
  pos = 0;
  constructor(readonly buf: Buffer) {}

  fail(msg: string): never {
    throw new PhpUnserializeError(msg, this.pos);
  }

  expect(ch: string): void {
    if (this.buf[this.pos] !== ch.charCodeAt(0)) this.fail(`expected "${ch}"`);
    this.pos++;
  }

  /** Characters up to (not including) the terminator, which is consumed. */
  until(term: string): string {
    const end = this.buf.indexOf(term.charCodeAt(0), this.pos);
    if (end < 0) this.fail(`missing "${term}"`);
    const s = this.buf.toString('latin1', this.pos, end);
    this.pos = end + 1;
    return s;
  }

  int(term: string): number {
    const s = this.until(term);
    if (!/^[+-]?\d{1,18}$/.test(s)) this.fail(`bad integer "${s.slice(0, 20)}"`);
    return Number(s);
  }

  length(term: string): number {
    const n = this.int(term);
    if (n < 0) this.fail('negative length');
    return n;
  }

  str(): string {
    const len = this.length(':');
    this.expect('"');
    if (this.pos + len > this.buf.length) this.fail('string runs past the end');
    const s = this.buf.toString('utf8', this.pos, this.pos + len);
    this.pos += len;
    this.expect('"');
    return s;
  }

  value(depth: number): PhpValue {
    if (depth > MAX_DEPTH) this.fail('nested too deep');
    const type = String.fromCharCode(this.buf[this.pos] ?? 0);
    this.pos++;
    switch (type) {
      case 'N':
        this.expect(';');
        return null;
      case 'b': {
        this.expect(':');
        const v = this.until(';');
        if (v !== '0' && v !== '1') this.fail('bad boolean');
        return v === '1';
      }
      case 'i':
        this.expect(':');
        return this.int(';');
      case 'd': {
        this.expect(':');
        const s = this.until(';');
        if (s === 'INF') return Infinity;
        if (s === '-INF') return -Infinity;
        if (s === 'NAN') return NaN;
        if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s)) this.fail(`bad float "${s.slice(0, 20)}"`);
        return Number(s);
      }
      case 's': {
        this.expect(':');
        const s = this.str();
        this.expect(';');
        return s;
      }
      case 'a': {
        this.expect(':');
        const n = this.length(':');
        this.expect('{');
        const v = this.entries(n, depth);
        this.expect('}');
        return v;
      }
      case 'O': {
        this.expect(':');
        this.str(); // class name
        this.expect(':');
        const n = this.length(':');
        this.expect('{');
        const v = this.entries(n, depth);
        this.expect('}');
        return Array.isArray(v) ? Object.assign(Object.create(null) as PhpRecord, v) : v;
      }
      default:
        return this.fail(`unknown type "${type}"`);
    }
  }

  /** n key/value pairs: a list when the keys are 0..n-1 in order, else a record (null prototype). */
  entries(n: number, depth: number): PhpValue[] | PhpRecord {
    if (n > this.buf.length) this.fail('more entries than bytes');
    const keys: string[] = [];
    const values: PhpValue[] = [];
    let sequential = true;
    for (let i = 0; i < n; i++) {
      const k = this.value(depth + 1);
      if (typeof k !== 'number' && typeof k !== 'string') this.fail('array key must be an integer or a string');
      if (k !== i) sequential = false;
      keys.push(String(k));
      values.push(this.value(depth + 1));
    }
    if (sequential) return values;
    const rec = Object.create(null) as PhpRecord;
    keys.forEach((k, i) => (rec[k] = values[i]!));
    return rec;
  }
}

/** Parses one serialized value; the whole input must be consumed. */
export function phpUnserialize(input: string): PhpValue {
  const r = new Reader(Buffer.from(input, 'utf8'));
  const v = r.value(0);
  if (r.pos !== r.buf.length) r.fail('trailing bytes');
  return v;
}

/** WordPress's is_serialized(), strict form: does this string look like serialize() output? */
export function looksSerialized(s: string): boolean {
  const t = s.trim();
  if (t === 'N;') return true;
  return /^([aO]:\d+:.*[;}]|[bid]:[^;]*;|s:\d+:".*";)$/s.test(t);
}

export type MaybeValue = { ok: true; value: PhpValue } | { ok: false; raw: string; error: string };

/** maybe_unserialize: serialized text is parsed, anything else is the string itself; a bad parse says why. */
export function maybeUnserialize(s: string): MaybeValue {
  if (!looksSerialized(s)) return { ok: true, value: s };
  try {
    return { ok: true, value: phpUnserialize(s.trim()) };
  } catch (err) {
    if (err instanceof PhpUnserializeError) return { ok: false, raw: s, error: err.message };
    throw err;
  }
}
