// Pure form ↔ body mapping of EntityCrud (kept apart so unit tests need no browser globals).

import type { PickerSource } from './Combobox';

export interface FieldSpec {
  name: string;
  label: string;
  /** 'picker': a record chosen by name from `picker` (searchable combobox); the body gets its id. */
  kind: 'text' | 'number' | 'select' | 'checkbox' | 'date' | 'picker';
  picker?: PickerSource;
  options?: readonly string[];
  required?: boolean;
  /** Empty input sends null (instead of leaving the field out). */
  nullable?: boolean;
  step?: string;
  hint?: string;
}

export type Values = Record<string, string | boolean>;

/** Form values (strings/booleans) → the API body: numbers parsed, empty optional fields left out or null. */
export function toBody(fields: FieldSpec[], v: Values): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const raw = v[f.name];
    if (f.kind === 'checkbox') {
      out[f.name] = raw === true;
      continue;
    }
    const s = typeof raw === 'string' ? raw.trim() : '';
    if (s === '') {
      if (f.nullable) out[f.name] = null;
      continue;
    }
    out[f.name] = f.kind === 'number' || f.kind === 'picker' ? Number(s) : s;
  }
  return out;
}
