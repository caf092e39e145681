import { Type, type TSchema } from '@sinclair/typebox';
import { RentalEnvelope, rentalErrors } from '../../platform/http/schemas.js';

export const IdParams = Type.Object({ id: Type.Integer({ minimum: 1, description: 'Numeric id' }) });
export const DateStr = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD (store timezone)' });
export const TimeStr = Type.String({ pattern: '^([01]\\d|2[0-3]):[0-5]\\d$', description: 'HH:MM, 24 h (store timezone)' });
export const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

/** Admin route response set: 200 envelope + the error classes every admin route can give. */
export function adminResponses<T extends TSchema>(data: T, ok = 200, ...extra: number[]) {
  return { [ok]: RentalEnvelope(data), ...rentalErrors(400, 401, 403, 429, ...extra) };
}

export const Deleted = Type.Object({ id: Type.Integer(), deleted: Type.Boolean() });
