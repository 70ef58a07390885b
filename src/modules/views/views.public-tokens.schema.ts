// GraphQL face of sharing a view (docs/api/data-views.md "Sharing"). REST:
// rest-adapter/routes/views.ts. The internal token is standard tier (the view and its records must
// be readable: views.internal-token.ts); public access tokens are privileged, like the rest of view
// administration: TEAM_SETTINGS (or a team admin), never a scoped token; view level to read, edit
// level to create, rotate or revoke.
import type { ArgBuilder } from '@pothos/core';
import { tier } from '../../app/auth/tiers.ts';
import { builder, type BuilderTypes } from '../../app/builder.ts';
import { byId, idArg } from '../../app/graphql/args.ts';
import { givenFields } from '../../app/graphql/input-fields.ts';
import { INTERNAL_TOKEN_TTL_SECONDS, type InternalTokenItem, issueInternalToken } from './views.internal-token.ts';
import { MAX_ALLOWED_ORIGINS, TOKEN_TYPES } from './views.public-tokens.input.ts';
import { createPublicToken, deletePublicToken, getPublicToken, type IssuedPublicToken, type PublicTokenMeta, type TokenCreator } from './views.public-tokens.service.ts';

const PRIVILEGED = 'Privileged: TEAM_SETTINGS (or team admin), never a scoped token.';

export const DataViewTokenTypeEnum = builder.enumType('DataViewTokenType', { values: TOKEN_TYPES });

const DataViewInternalTokenRef = builder.objectRef<InternalTokenItem>('DataViewInternalToken').implement({
  description: `A short-lived link (${INTERNAL_TOKEN_TTL_SECONDS / 60} minutes) that shows the view to the caller in a frame of a first-party surface; the token is the URL's last segment.`,
  fields: (t) => ({
    dataViewSimplyId: t.exposeString('dataViewSimplyId'),
    url: t.exposeString('url', { description: 'the view\u2019s read-only page for this caller: treat it as a secret' }),
    expiresAt: t.field({ type: 'DateTime', resolve: (i) => i.expiresAt }),
    expiresInSeconds: t.exposeInt('expiresInSeconds'),
  }),
});

const DataViewTokenCreatorRef = builder.objectRef<TokenCreator>('DataViewTokenCreator').implement({
  fields: (t) => ({
    kind: t.exposeString('kind', { description: 'API_KEY or USER' }),
    id: t.exposeString('id', { nullable: true, description: 'the API key\u2019s or the user\u2019s simplyId' }),
  }),
});

/** The fields of the metadata, shared by the GET answer and the POST answer. */
function metaFields<T extends PublicTokenMeta>(t: PothosSchemaTypes.ObjectFieldBuilder<BuilderTypes, T>) {
  return {
    dataViewSimplyId: t.string({ resolve: (m) => m.dataViewSimplyId }),
    tokenType: t.field({ type: DataViewTokenTypeEnum, resolve: (m) => m.tokenType }),
    purpose: t.string({ description: 'DATAVIEW_EMBED or DATAVIEW_ICS_FEED', resolve: (m) => m.purpose }),
    exists: t.boolean({ description: 'the view has a token of this type', resolve: (m) => m.exists }),
    tokenHint: t.string({ nullable: true, description: 'the prefix and first characters of the secret', resolve: (m) => m.tokenHint }),
    maskedUrl: t.string({ nullable: true, description: 'the URL with the secret cut to its hint: recognisable, not usable', resolve: (m) => m.maskedUrl }),
    allowedOrigins: t.stringList({ description: 'EMBED: the https origins that may frame the page', resolve: (m) => m.allowedOrigins }),
    createdAt: t.field({ type: 'DateTime', nullable: true, resolve: (m) => m.createdAt }),
    createdBy: t.field({ type: DataViewTokenCreatorRef, nullable: true, resolve: (m) => m.createdBy }),
    lastUsedAt: t.field({ type: 'DateTime', nullable: true, description: 'when the URL last answered (to the minute)', resolve: (m) => m.lastUsedAt }),
    isServing: t.boolean({ description: 'the URL answers now: the view is published (ICS_FEED: and a CALENDAR view)', resolve: (m) => m.isServing }),
  };
}

const DataViewPublicAccessTokenRef = builder.objectRef<PublicTokenMeta>('DataViewPublicAccessToken').implement({
  description: 'A view\u2019s public access token of one type, without its secret.',
  fields: (t) => metaFields(t),
});

const DataViewIssuedPublicAccessTokenRef = builder.objectRef<IssuedPublicToken>('DataViewIssuedPublicAccessToken').implement({
  description: 'A new public access token: its secret and URL are shown only here.',
  fields: (t) => ({
    ...metaFields(t),
    token: t.exposeString('token', { description: 'the secret, shown once; only its hash is stored' }),
    url: t.exposeString('url', { description: 'the ready URL: the embedded page, or the calendar feed (.ics)' }),
    rotated: t.exposeBoolean('rotated', { description: 'a token of this type existed and no longer works' }),
  }),
});

const DataViewPublicAccessTokenInput = builder.inputType('DataViewPublicAccessTokenInput', {
  fields: (t) => ({
    allowedOrigins: t.stringList({ description: `EMBED only: up to ${MAX_ALLOWED_ORIGINS} https origins that may frame the page; none: no site may frame it` }),
  }),
});

const tokenArgs = (t: ArgBuilder<BuilderTypes>) => ({ ...idArg(t, 'dataViewSimplyId'), tokenType: t({ type: DataViewTokenTypeEnum, required: true }) });

builder.queryFields((t) => ({
  dataViewInternalToken: t.field({
    type: DataViewInternalTokenRef,
    description: 'A short-lived link showing the view to the caller (first-party surfaces). Needs read permission on the view\u2019s collection; scoped tokens: schema:read and records:read.',
    authScopes: tier.standard,
    ...byId(t.arg, 'dataViewSimplyId', issueInternalToken),
  }),
  dataViewPublicAccessToken: t.field({
    type: DataViewPublicAccessTokenRef,
    description: `The view's public access token of the type: its metadata, never its secret (exists: false when there is none). ${PRIVILEGED} View level.`,
    authScopes: tier.teamSettings('VIEW'),
    args: tokenArgs(t.arg),
    resolve: (_root, args, ctx) => getPublicToken(ctx, args.dataViewSimplyId, args.tokenType),
  }),
}));

builder.mutationFields((t) => ({
  createDataViewPublicAccessToken: t.field({
    type: DataViewIssuedPublicAccessTokenRef,
    description: `Creates the view's public access token of the type, or rotates it (the old one stops working). The view must be shareable (share-readiness). ${PRIVILEGED} Edit level.`,
    authScopes: tier.teamSettings('EDIT'),
    args: { ...tokenArgs(t.arg), input: t.arg({ type: DataViewPublicAccessTokenInput }) },
    resolve: (_root, args, ctx) => createPublicToken(ctx, args.dataViewSimplyId, args.tokenType, args.input ? givenFields(args.input) : undefined),
  }),
  deleteDataViewPublicAccessToken: t.boolean({
    description: `Revokes the view's public access token of the type at once. ${PRIVILEGED} Edit level.`,
    authScopes: tier.teamSettings('EDIT'),
    args: tokenArgs(t.arg),
    resolve: (_root, args, ctx) => deletePublicToken(ctx, args.dataViewSimplyId, args.tokenType),
  }),
}));
