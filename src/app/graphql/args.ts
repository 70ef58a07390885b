// Argument sets and resolvers that many fields share, so a field states only what is its own:
// its type, its tier and the service function it calls.
import type { ArgBuilder, ArgumentRef, InputObjectRef } from '@pothos/core';
import type { PrismaSelection } from '../../db/prisma.ts';
import type { PageInput } from '../paging.ts';
import type { BuilderTypes } from '../builder.ts';
import type { RequestContext } from '../context.ts';
import { suppliedFields } from './input-fields.ts';

type Arg = ArgBuilder<BuilderTypes>;
type IdArgs<K extends string> = { [P in K]: ArgumentRef<BuilderTypes, string> };

/** `limit` and `offset`, the arguments of every offset-paged list field. */
export function pageArgs(arg: Arg) {
  return { limit: arg.int(), offset: arg.int() };
}

/** One required id argument, named as the field documents it (e.g. `dataViewSimplyId`). */
export function idArg<K extends string>(arg: Arg, name: K): IdArgs<K> {
  return { [name]: arg.string({ required: true }) } as IdArgs<K>;
}

/** `args` and `resolve` (spread into `t.field` / `t.boolean`) of a field that hands its one id to a service. */
export function byId<K extends string, R>(arg: Arg, name: K, run: (ctx: RequestContext, id: string) => R) {
  return {
    args: idArg(arg, name),
    resolve: (_root: unknown, args: { [P in K]: string }, ctx: RequestContext) => run(ctx, args[name]),
  };
}

/** The same for `t.prismaField`: the service also gets the Prisma selection Pothos derived from the query. */
export function prismaById<K extends string, R>(arg: Arg, name: K, run: (ctx: RequestContext, id: string, query: PrismaSelection) => R) {
  return {
    args: idArg(arg, name),
    resolve: (query: PrismaSelection, _root: unknown, args: { [P in K]: string }, ctx: RequestContext) => run(ctx, args[name], query),
  };
}

/** `resolve` of a field whose service takes the field's arguments as they come. */
export function withArgs<A, R>(run: (ctx: RequestContext, args: A) => R) {
  return (_root: unknown, args: A, ctx: RequestContext) => run(ctx, args);
}

/** `args` and `resolve` of a page of what belongs to one thing: its id, then limit/offset for the service. */
export function pageById<K extends string, R>(arg: Arg, name: K, run: (ctx: RequestContext, id: string, paging: PageInput) => R) {
  return {
    args: { ...idArg(arg, name), ...pageArgs(arg) },
    resolve: (_root: unknown, args: { [P in K]: string } & PageInput, ctx: RequestContext) => run(ctx, args[name], args),
  };
}

/**
 * `args` and `resolve` of a PATCH-style mutation: one id and an `input` object whose absent fields stay unchanged and
 * whose explicit nulls clear (suppliedFields), handed to the service.
 */
export function patchById<K extends string, I extends object, R>(
  arg: Arg,
  name: K,
  type: InputObjectRef<BuilderTypes, I>,
  run: (ctx: RequestContext, id: string, input: Partial<I>) => R,
) {
  return {
    args: { ...idArg(arg, name), input: arg({ type, required: true }) as ArgumentRef<BuilderTypes, I> },
    resolve: (_root: unknown, args: { [P in K]: string } & { input: I }, ctx: RequestContext) => run(ctx, args[name], suppliedFields(args.input)),
  };
}

/** `args` and `resolve` of a reorder mutation: the parent's id and its children's ids, listed ones first in that order. */
export function reorderById<K extends string, L extends string, R>(arg: Arg, name: K, list: L, run: (ctx: RequestContext, id: string, ordered: string[]) => R) {
  return {
    args: { ...idArg(arg, name), ...({ [list]: arg.stringList({ required: true }) } as { [P in L]: ArgumentRef<BuilderTypes, string[]> }) },
    resolve: (_root: unknown, args: { [P in K]: string } & { [P in L]: string[] }, ctx: RequestContext) => run(ctx, args[name], args[list]),
  };
}
