// GraphQL face of API keys. REST: rest-adapter/routes/credentials.ts.
import { builder } from '../../app/builder.ts';
import { byId, pageArgs, prismaById } from '../../app/graphql/args.ts';
import { givenFields, suppliedFields } from '../../app/graphql/input-fields.ts';
import { pageResolver, pageType } from '../../app/graphql/page.ts';
import { tier } from '../../app/auth/tiers.ts';
import {
  countApiKeys,
  createApiKey,
  findApiKey,
  findApiKeys,
  loadApiKey,
  revokeApiKey,
  rotateApiKey,
  updateApiKey,
  type IssuedKey,
} from './api-keys.service.ts';
import { roleSimplyIdField } from '../team-roles/index.ts';

const FEATURE = 'TEAM_ADMIN_API_KEYS';

export const ApiKeyRef = builder.prismaObject('ApiKey', {
  fields: (t) => ({
    id: t.exposeString('simplyId'),
    apiKeySimplyId: t.exposeString('simplyId'),
    name: t.exposeString('name'),
    keyHint: t.exposeString('keyHint', { description: 'the key prefix and first characters, never the secret' }),
    teamRoleSimplyId: t.string(roleSimplyIdField),
    featurePermissions: t.exposeStringList('featurePermissions', { description: 'NAME (edit level) or NAME:VIEW' }),
    allowedIpAddresses: t.exposeStringList('allowedIpAddresses'),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', nullable: true }),
    expired: t.boolean({ resolve: (key) => key.expiresAt !== null && key.expiresAt.getTime() <= Date.now() }),
    lastRotatedAt: t.expose('lastRotatedAt', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const ApiKeyPage = pageType('ApiKeyPage', ApiKeyRef);

const IssuedApiKeyRef = builder.objectRef<IssuedKey>('IssuedApiKey').implement({
  description: 'Returned by create and rotate: the only time the full key is shown.',
  fields: (t) => ({
    fullApiKey: t.exposeString('fullApiKey'),
    apiKey: t.prismaField({
      type: 'ApiKey',
      resolve: (query, issued, _args, ctx) => loadApiKey(ctx, issued.id, query),
    }),
  }),
});

const CreateApiKeyInput = builder.inputType('CreateApiKeyInput', {
  fields: (t) => ({
    name: t.string({ required: true }),
    teamRoleSimplyId: t.string(),
    featurePermissions: t.stringList(),
    allowedIpAddresses: t.stringList(),
    expiresAt: t.string({ description: 'ISO 8601 date-time in the future; omit for a key that does not expire' }),
  }),
});

const UpdateApiKeyInput = builder.inputType('UpdateApiKeyInput', {
  fields: (t) => ({
    name: t.string(),
    teamRoleSimplyId: t.string({ description: 'null removes the role (no record access)' }),
    featurePermissions: t.stringList(),
    allowedIpAddresses: t.stringList(),
    expiresAt: t.string({ description: 'null removes the expiry' }),
  }),
});

builder.queryFields((t) => ({
  apiKeys: t.field({
    type: ApiKeyPage,
    authScopes: tier.privileged(FEATURE, 'VIEW'),
    args: pageArgs(t.arg),
    resolve: pageResolver(findApiKeys, countApiKeys),
  }),
  apiKey: t.prismaField({
    type: 'ApiKey',
    authScopes: tier.privileged(FEATURE, 'VIEW'),
    ...prismaById(t.arg, 'apiKeySimplyId', findApiKey),
  }),
}));

builder.mutationFields((t) => ({
  createApiKey: t.field({
    type: IssuedApiKeyRef,
    authScopes: tier.privileged(FEATURE, 'EDIT'),
    args: { input: t.arg({ type: CreateApiKeyInput, required: true }) },
    resolve: (_root, args, ctx) => createApiKey(ctx, givenFields(args.input)),
  }),
  updateApiKey: t.prismaField({
    type: 'ApiKey',
    authScopes: tier.privileged(FEATURE, 'EDIT'),
    args: { apiKeySimplyId: t.arg.string({ required: true }), input: t.arg({ type: UpdateApiKeyInput, required: true }) },
    resolve: async (query, _root, args, ctx) => loadApiKey(ctx, await updateApiKey(ctx, args.apiKeySimplyId, suppliedFields(args.input)), query),
  }),
  rotateApiKey: t.field({
    type: IssuedApiKeyRef,
    authScopes: tier.privileged(FEATURE, 'EDIT'),
    ...byId(t.arg, 'apiKeySimplyId', rotateApiKey),
  }),
  revokeApiKey: t.boolean({
    authScopes: tier.privileged(FEATURE, 'EDIT'),
    ...byId(t.arg, 'apiKeySimplyId', revokeApiKey),
  }),
}));
