import { describe, expect, it } from 'vitest';
import { PgDialect } from 'drizzle-orm/pg-core';
import { asSql, ident, StatementText } from '../../src/platform/db/statement.js';

describe('StatementText', () => {
  it('numbers parameters in order, sends objects as jsonb and undefined as null', () => {
    const s = new StatementText();
    const text = `SELECT ${s.param(1)}, ${s.param('a')}, ${s.param({ x: [1] })}, ${s.param([1, 2])}, ${s.param(undefined)}, ${s.param(null)}`;
    expect(text).toBe('SELECT $1, $2, $3::jsonb, $4::jsonb, $5, $6');
    expect(s.params).toEqual([1, 'a', '{"x":[1]}', '[1,2]', null, null]);
  });

  it('quotes identifiers, doubling quotes', () => {
    expect(ident('total')).toBe('"total"');
    expect(ident('we"ird')).toBe('"we""ird"');
  });

  it('asSql gives Drizzle the same text and parameters (parameters past $9 included)', () => {
    const s = new StatementText();
    const text = `SELECT ${Array.from({ length: 12 }, (_, i) => s.param(`v${i}`)).join(', ')} WHERE x = ${s.param(5)}::int`;
    const q = new PgDialect().sqlToQuery(asSql(text, s.params));
    expect(q.sql).toBe(text);
    expect(q.params).toEqual(s.params);
  });
});
