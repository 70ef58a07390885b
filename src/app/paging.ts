// Offset paging shared by every list (Document 1 §8): limit 1-100 (default 25), offset >= 0.
import { ValidationError } from './errors.ts';

export interface PageInput {
  limit?: number | null;
  offset?: number | null;
}

export interface Paging {
  limit: number;
  offset: number;
}

export function parsePaging(input: PageInput, options: { defaultLimit?: number; maxLimit?: number; maxOffset?: number } = {}): Paging {
  const { defaultLimit = 25, maxLimit = 100, maxOffset = 1_000_000 } = options;
  const limit = input.limit ?? defaultLimit;
  const offset = input.offset ?? 0;
  const details = [];
  if (!Number.isInteger(limit) || limit < 1 || limit > maxLimit) {
    details.push({ field: 'limit', message: `must be an integer from 1 to ${maxLimit}` });
  }
  if (!Number.isInteger(offset) || offset < 0 || offset > maxOffset) {
    details.push({ field: 'offset', message: `must be an integer from 0 to ${maxOffset}` });
  }
  if (details.length > 0) throw new ValidationError('Invalid paging parameters', details);
  return { limit, offset };
}

export interface PaginationShape {
  total: number;
  limit: number;
  offset: number;
  hasMore: boolean;
}

export function pagination(total: number, paging: Paging): PaginationShape {
  return { total, limit: paging.limit, offset: paging.offset, hasMore: paging.offset + paging.limit < total };
}

/** `orderBy`, `skip` and `take` of a Prisma findMany for one page in creation order (ties broken by id). */
export function byCreation(paging: Paging, direction: 'asc' | 'desc') {
  return { orderBy: [{ createdAt: direction }, { id: direction }], skip: paging.offset, take: paging.limit };
}

/**
 * The pagination of a page that read `read` rows; `count` runs only when the page cannot tell the total
 * (a short, non-empty page, or an empty first page, already does).
 */
export async function paginationOf(read: number, paging: Paging, count: () => Promise<number>): Promise<PaginationShape> {
  const knowsTotal = read < paging.limit && (read > 0 || paging.offset === 0);
  return pagination(knowsTotal ? paging.offset + read : await count(), paging);
}

/** One page of a list: what every offset-paged field returns (REST: data and meta.pagination). */
export interface Page<T> {
  nodes: T[];
  pagination: PaginationShape;
}
