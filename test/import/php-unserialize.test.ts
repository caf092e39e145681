import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  looksSerialized,
  maybeUnserialize,
  phpUnserialize,
  PhpUnserializeError,
} from '../../src/modules/import/wordpress/php-unserialize.js';

describe('phpUnserialize', () => {
  it('reads scalars', () => {
    expect(phpUnserialize('N;')).toBeNull();
    expect(phpUnserialize('b:1;')).toBe(true);
    expect(phpUnserialize('b:0;')).toBe(false);
    expect(phpUnserialize('i:-42;')).toBe(-42);
    expect(phpUnserialize('d:0.5;')).toBe(0.5);
    expect(phpUnserialize('d:1.0E+25;')).toBe(1e25);
    expect(phpUnserialize('s:5:"hello";')).toBe('hello');
  });

  it('counts string lengths in UTF-8 bytes, as PHP writes them', () => {
    expect(phpUnserialize('s:13:"İstanbul €";')).toBe('İstanbul €');
    expect(phpUnserialize('s:9:"東京都";')).toBe('東京都');
    expect(() => phpUnserialize('s:10:"İstanbul €";')).toThrow(PhpUnserializeError);
  });

  it('reads a list (keys 0..n-1) as an array and anything else as a record', () => {
    expect(phpUnserialize('a:2:{i:0;s:3:"ABS";i:1;s:9:"Bluetooth";}')).toEqual(['ABS', 'Bluetooth']);
    const r = phpUnserialize('a:2:{s:8:"pa_color";a:2:{s:4:"name";s:8:"pa_color";s:11:"is_taxonomy";i:1;}i:5;b:1;}');
    expect(r).toEqual({ pa_color: { name: 'pa_color', is_taxonomy: 1 }, 5: true });
    expect(phpUnserialize('a:1:{i:1;s:1:"x";}')).toEqual({ 1: 'x' });
  });

  it('reads an object as the record of its properties', () => {
    expect(phpUnserialize('O:8:"stdClass":1:{s:1:"a";i:1;}')).toEqual({ a: 1 });
  });

  it('keeps a "__proto__" key as data', () => {
    const r = phpUnserialize('a:1:{s:9:"__proto__";s:1:"x";}') as Record<string, unknown>;
    expect(Object.keys(r)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it.each([
    '',
    'x',
    'i:1',
    'i:1;;',
    'b:2;',
    's:3:"ab";',
    's:-1:"";',
    'a:1:{i:0;}',
    'a:2:{i:0;i:1;}',
    'a:1:{a:0:{}i:1;}',
    'd:abc;',
    'O:3:"Foo":1:{',
  ])('refuses %j with its own error', (input) => {
    expect(() => phpUnserialize(input)).toThrow(PhpUnserializeError);
  });

  it('refuses nesting deeper than 64', () => {
    expect(() => phpUnserialize('a:1:{i:0;'.repeat(70) + 'N;' + '}'.repeat(70))).toThrow(/nested too deep/);
  });

  it('fuzz: random and mutated input never throws anything but PhpUnserializeError', () => {
    const seeds = [
      'a:3:{i:0;s:3:"ABS";s:1:"k";d:1.5;i:9;a:1:{i:0;b:1;}}',
      'O:8:"stdClass":1:{s:1:"a";N;}',
      's:6:"€x";',
    ];
    const alphabet = 'asidbNO:;{}"0123456789-.E';
    for (let i = 0; i < 5000; i++) {
      const bytes = randomBytes(24);
      let input: string;
      if (i % 2 === 0) {
        input = [...bytes].map((b) => alphabet[b % alphabet.length]).join('');
      } else {
        const s = seeds[i % seeds.length]!.split('');
        s[bytes[0]! % s.length] = alphabet[bytes[1]! % alphabet.length]!;
        if (bytes[2]! % 3 === 0) s.splice(bytes[3]! % s.length, 1);
        input = s.join('');
      }
      try {
        phpUnserialize(input);
      } catch (err) {
        expect(err, input).toBeInstanceOf(PhpUnserializeError);
      }
    }
  });
});

describe('maybeUnserialize', () => {
  it('returns plain text as it is and says why a serialized-looking value does not parse', () => {
    expect(maybeUnserialize('19.99')).toEqual({ ok: true, value: '19.99' });
    expect(maybeUnserialize('a:1:{i:0;s:1:"x";}')).toEqual({ ok: true, value: ['x'] });
    const bad = maybeUnserialize('a:1:{i:0;s:5:"x";}');
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error).toMatch(/^expected "\\"" at byte|string runs past/);
    expect(looksSerialized('s:2:"ab";')).toBe(true);
    expect(looksSerialized('hello')).toBe(false);
  });
});
