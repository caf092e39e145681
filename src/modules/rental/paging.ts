import { Type, type TSchema } from '@sinclair/typebox';

/** Highest page accepted (keeps OFFSET a safe integer; any page past the end is `items: []` anyway). */
export const MAX_PAGE = 1_000_000;

/** Query fields of every rental list (design §1): `page` ≥ 1 (default 1), `per_page` 1–100 (default 20). */
export const PagingQuery = {
  page: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: MAX_PAGE,
      default: 1,
      description: 'Page (≥ 1); past the end gives items: []',
    }),
  ),
  per_page: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Items per page (1–100)' }),
  ),
};

export interface PageRequest {
  page: number;
  perPage: number;
  limit: number;
  offset: number;
}

export function parsePaging(q: { page?: number; per_page?: number }): PageRequest {
  const page = q.page ?? 1;
  const perPage = q.per_page ?? 20;
  return { page, perPage, limit: perPage, offset: (page - 1) * perPage };
}

export interface Page<T> {
  items: T[];
  total: number;
  total_pages: number;
  page: number;
  per_page: number;
}

export function pageOf<T>(items: T[], total: number, p: PageRequest): Page<T> {
  return { items, total, total_pages: Math.ceil(total / p.perPage), page: p.page, per_page: p.perPage };
}

export const PageSchema = <T extends TSchema>(item: T) =>
  Type.Object({
    items: Type.Array(item),
    total: Type.Integer(),
    total_pages: Type.Integer(),
    page: Type.Integer(),
    per_page: Type.Integer(),
  });
