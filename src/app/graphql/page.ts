// `<Thing>Page { nodes, pagination }`: the list shape every offset-paged field returns, so the
// REST adapter can map it straight onto `data` and `meta.pagination`.
import type { ObjectRef } from '@pothos/core';
import { queryFromInfo } from '@pothos/plugin-prisma';
import type { GraphQLResolveInfo } from 'graphql';
import { builder, type BuilderTypes } from '../builder.ts';
import type { PrismaSelection } from '../../db/prisma.ts';
import type { RequestContext } from '../context.ts';
import { paginationOf, parsePaging, type Page, type PageInput, type PaginationShape, type Paging } from '../paging.ts';

export type { Page };

export function pageType<T>(name: string, nodeRef: ObjectRef<BuilderTypes, T>) {
  return builder.objectRef<Page<T>>(name).implement({
    fields: (t) => ({
      nodes: t.expose('nodes', { type: [nodeRef] }),
      pagination: t.expose('pagination', { type: PaginationRef }),
    }),
  });
}

/**
 * Runs a page query, and its count only when the page cannot tell the total. `findMany` receives the Prisma selection Pothos
 * derived from the GraphQL selection under `nodes`, so nested relations load in one query.
 */
export async function loadPage<T>(
  ctx: RequestContext,
  info: GraphQLResolveInfo,
  args: PageInput,
  run: {
    findMany: (query: { include?: object; select?: object }, paging: Paging) => Promise<T[]>;
    count: () => Promise<number>;
  },
): Promise<Page<T>> {
  const paging = parsePaging(args);
  const query = queryFromInfo({ context: ctx, info, path: ['nodes'] }) as { include?: object; select?: object };
  const nodes = await run.findMany(query, paging);
  return { nodes, pagination: await paginationOf(nodes.length, paging, run.count) };
}

/** `resolve` of a page field whose service offers a find (taking the Prisma selection) and a count. */
export function pageResolver<T>(
  findMany: (ctx: RequestContext, query: PrismaSelection, paging: Paging) => Promise<T[]>,
  count: (ctx: RequestContext) => Promise<number>,
) {
  return (_root: unknown, args: PageInput, ctx: RequestContext, info: GraphQLResolveInfo) =>
    loadPage(ctx, info, args, { findMany: (query, paging) => findMany(ctx, query, paging), count: () => count(ctx) });
}

export const PaginationRef = builder.objectRef<PaginationShape>('Pagination').implement({
  fields: (t) => ({
    total: t.exposeInt('total'),
    limit: t.exposeInt('limit'),
    offset: t.exposeInt('offset'),
    hasMore: t.exposeBoolean('hasMore', { description: 'true when more items exist beyond this page' }),
  }),
});

