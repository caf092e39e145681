import { describe, expect, it } from 'vitest';
import { FIRST, LAST } from '../../src/modules/rental/seed/data.js';
import { emailLocalPart } from '../../src/modules/rental/seed/demo.js';

describe('demo customers', () => {
  it('e-mail addresses drop accents instead of splitting names with dots (was "ays.e.mu.ller")', () => {
    expect(emailLocalPart('Ayşe Müller')).toBe('ayse.muller');
    expect(emailLocalPart('Mehmet Yılmaz')).toBe('mehmet.yilmaz');
    expect(emailLocalPart('Zeynep Öztürk')).toBe('zeynep.ozturk');
    for (const f of FIRST) for (const l of LAST) expect(emailLocalPart(`${f} ${l}`)).toMatch(/^[a-z]+\.[a-z]+$/);
  });
});
