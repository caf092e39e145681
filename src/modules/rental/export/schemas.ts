import { Type, type TSchema } from '@sinclair/typebox';
import { PagingQuery } from '../paging.js';
import { DateStr, lit } from '../schemas.js';
import { FORMATS } from './encode.js';
import { EXPORT_TYPES } from './registry.js';

const typeNames = EXPORT_TYPES.map((t) => t.name);

/** Every type's own filters as optional body fields (a name shared by several types lists them all). */
function filterFields(): Record<string, TSchema> {
  const byName = new Map<string, { schemas: TSchema[]; types: string[] }>();
  for (const t of EXPORT_TYPES) {
    for (const [name, def] of Object.entries(t.filters ?? {})) {
      const e = byName.get(name) ?? { schemas: [], types: [] };
      if (!e.schemas.some((s) => JSON.stringify(s) === JSON.stringify(def.schema))) e.schemas.push(def.schema);
      e.types.push(t.name);
      byName.set(name, e);
    }
  }
  const out: Record<string, TSchema> = {};
  for (const [name, e] of byName) {
    const description = `Filter of type ${e.types.join(', ')} (another type → 400)`;
    out[name] = Type.Optional(
      e.schemas.length === 1 ? Type.Unsafe({ ...e.schemas[0], description }) : Type.Union(e.schemas, { description }),
    );
  }
  return out;
}

const statusDoc = EXPORT_TYPES.map((t) => `${t.name}: ${t.status ? t.status.values.join('|') : '(none)'}`).join('; ');

export const PreviewBody = Type.Object(
  {
    type: lit(typeNames),
    date_from: Type.Optional({ ...DateStr, description: 'First day (YYYY-MM-DD, store time zone, inclusive)' }),
    date_to: Type.Optional({ ...DateStr, description: 'Last day (YYYY-MM-DD, store time zone, inclusive)' }),
    status: Type.Optional(Type.String({ maxLength: 50, description: `Status of the type — ${statusDoc}` })),
    ...filterFields(),
  },
  {
    additionalProperties: false,
    examples: [{ type: 'bookings', date_from: '2026-01-01', date_to: '2026-12-31', status: 'confirmed' }],
  },
);

export const ExportBody = Type.Object(
  { ...PreviewBody.properties, format: lit(FORMATS) },
  {
    additionalProperties: false,
    examples: [{ type: 'bookings', format: 'csv', date_from: '2026-01-01', date_to: '2026-12-31' }],
  },
);

export const PreviewData = Type.Object({
  type: Type.String(),
  count: Type.Integer({ description: 'Rows the file would have now' }),
  columns: Type.Array(Type.String(), { description: 'Column keys, in file order' }),
  sample: Type.Array(Type.Record(Type.String(), Type.Unknown()), {
    description: 'The first ≤ 5 rows of the file (JSON values)',
  }),
});

export const HistoryItem = Type.Object({
  id: Type.String(),
  date: Type.String({ description: 'Run start (ISO-8601 UTC)' }),
  type: Type.String(),
  format: Type.String(),
  filename: Type.String(),
  records: Type.Integer(),
  bytes: Type.Integer(),
  sha256: Type.String({ description: 'SHA-256 (hex) of the bytes produced' }),
  status: lit(['completed', 'failed'] as const),
  error: Type.Union([Type.String(), Type.Null()]),
  user_id: Type.Union([Type.Integer(), Type.Null()], { description: 'null = the rova export CLI' }),
  filters: Type.Record(Type.String(), Type.Unknown()),
  expires_at: Type.String({ description: 'Dropped after this instant (1 week after the run)' }),
});

export const HistoryQuery = Type.Object({ ...PagingQuery });

export const EntryParams = Type.Object({
  id: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$', description: 'History entry id (exp_…)' }),
});

export const Deleted = Type.Object({ id: Type.String(), deleted: Type.Literal(true) });
