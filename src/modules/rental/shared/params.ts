import { Type } from '@sinclair/typebox';
import { PagingQuery } from '../paging.js';
import { Id } from '../schemas.js';

/**
 * Input schemas of the admin routes, bounded so that no accepted value can fail in the database (which would
 * answer 500): ids and pages use the rental module's bounded `Id` / `PagingQuery` (page ≤ MAX_PAGE), and free
 * text holds no NUL character (PostgreSQL text cannot store U+0000). Anything outside → 400 INVALID_PARAMS.
 */

/** A database id: a positive safe integer (a larger number would overflow bigint in SQL). */
export const IdSchema = (description?: string) => Id(description ? { description } : {});

/** Route params `{id}`. */
export const IdParams = (description?: string) => Type.Object({ id: IdSchema(description) });

/** Free text without NUL characters. */
export { Text } from '../schemas.js';

/** `page` / `per_page` of design §1. */
export const Paging = PagingQuery;
