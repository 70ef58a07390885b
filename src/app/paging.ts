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

/** One page of a list: what every offset-paged field returns (REST: data and meta.pagination). */
export interface Page<T> {
  nodes: T[];
  pagination: PaginationShape;
}
