// The one Pothos SchemaBuilder. Plugin order matters: scope-auth first so authorization runs
// before any other plugin's resolver wrapping.
import SchemaBuilder from '@pothos/core';
import PrismaPlugin from '@pothos/plugin-prisma';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import { getDatamodel, type default as PrismaTypes } from '../generated/pothos-types.ts';
import { authScopes, pickAuthError, type AuthScopes } from './auth/auth-scopes.ts';
import type { RequestContext } from './context.ts';

export const builder = new SchemaBuilder<{
  Context: RequestContext;
  PrismaTypes: PrismaTypes;
  AuthScopes: AuthScopes;
  DefaultFieldNullability: false;
  Scalars: {
    DateTime: { Input: Date; Output: Date | string };
    JSON: { Input: unknown; Output: unknown };
    LocalizedText: { Input: string | Record<string, string>; Output: string | Record<string, string> };
  };
}>({
  plugins: [ScopeAuthPlugin, PrismaPlugin],
  defaultFieldNullability: false,
  scopeAuth: {
    authorizeOnSubscribe: true,
    treatErrorsAsUnauthorized: true,
    unauthorizedError: (_parent, _context, _info, result) => pickAuthError(result.failure),
    authScopes,
  },
  prisma: {
    client: (ctx) => ctx.services.prisma,
    dmmf: getDatamodel(),
    exposeDescriptions: false,
    filterConnectionTotalCount: true,
    // resolvers that may answer null without querying (e.g. CurrentUser.rolePermissions) are expected
    onUnusedQuery: null,
  },
});

export type BuilderTypes = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;

builder.queryType({});
builder.mutationType({});
builder.subscriptionType({});
