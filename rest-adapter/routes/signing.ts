// /v1/signing-requests and the signer's /v1/signing/{signingToken} → src/modules/signing/signing.schema.ts
// (docs/api/signing-requests.md)
import { z } from 'zod';
import { createSigningRequestInput, declineBody, listSigningRequestsQuery, resendSigningRequestInput, signBody, signingSettingsInput, signingToken, SIGNING_LIMITS, voidSigningRequestInput } from '../../src/modules/signing/signing.input.ts';
import { SIGNING_REQUEST, SIGNING_REQUEST_SUMMARY, SIGNING_RESEND, SIGNING_SESSION, SIGNING_SETTINGS, SIGNING_VOIDED } from '../../src/modules/signing/signing.fragments.ts';
import { operation } from '../../src/app/graphql/fragments.ts';
import { defineRoutes, route, type RouteExtension } from '../route.ts';
import { createOne, getOne, listPage, updateOne } from '../route-shapes.ts';

const ONE = '/v1/signing-requests/{signingRequestSimplyId}';
const LINK = '/v1/signing';
const filters = Object.fromEntries(Object.entries(listSigningRequestsQuery).map(([name, schema]) => [name, { type: 'String', schema }]));

const SIGNER_LINK = "the signer's side of a signing request (docs/api/signing-requests.md \"Signing as a signer\"): the documents require signer links but show no signer routes; authorized by the link's token alone";

const DEFAULT_EXPIRY = 'the team\'s default expiry for signing requests created without expirationDays or expiresAt (docs/api/signing-requests.md "Default expiry"): the documents make both optional but name no route to set the default';

/** Served routes the documents do not list, each with why it exists (OpenAPI `x-extension`). */
const EXTENSIONS: Record<string, RouteExtension> = {
  'GET /v1/signing': { reason: SIGNER_LINK, public: true },
  'POST /v1/signing/sign': { reason: SIGNER_LINK, public: true },
  'POST /v1/signing/decline': { reason: SIGNER_LINK, public: true },
  'GET /v1/signing-settings': { reason: DEFAULT_EXPIRY },
  'PUT /v1/signing-settings': { reason: DEFAULT_EXPIRY },
};

export const signingRoutes = defineRoutes([
  createOne({
    path: '/v1/signing-requests',
    summary: 'Create a signing request',
    description: `Create a signing request (update access to the source collection; records:write): { sourceDataCollectionSimplyId, sourceDataRecordSimplyId, reviewFieldSimplyIds, signers[], signatureFieldSimplyIds?, fileTarget?, consentText?, consentVersion?, expirationDays? | expiresAt? (neither: the team's default expiry, else ${SIGNING_LIMITS.defaultExpirationDays} days; both: 400), signingBaseUrl?, sendImmediately? (default true) } → 201 summary`,
    name: 'CreateSigningRequest',
    inputType: 'CreateSigningRequestInput',
    body: createSigningRequestInput,
    example: {
      sourceDataCollectionSimplyId: 'GH89-JK23-MN45',
      sourceDataRecordSimplyId: 'QR67-ST89-UV23',
      reviewFieldSimplyIds: ['fld-AB23-CD45-EF67', 'fld-GH89-JK23-MN45'],
      signers: [
        { roleKey: 'member', nameFieldSimplyId: 'fld-AB23-CD45-EF67', emailFieldSimplyId: 'fld-GH89-JK23-MN45', signingOrder: 1 },
        { roleKey: 'witness', name: 'Grace Hopper', email: 'grace@example.org', signingOrder: 2 },
      ],
      consentText: { en: 'I agree to sign electronically.' },
      consentVersion: '2026-01',
      expirationDays: 14,
    },
    select: SIGNING_REQUEST_SUMMARY,
  }),
  listPage({
    path: '/v1/signing-requests',
    summary: 'List signing requests',
    description: 'Signing requests on records of collections the caller may read, newest first (records:read): limit, offset, status, sourceDataCollectionSimplyId, sourceDataRecordSimplyId, signingProfileSimplyId',
    name: 'SigningRequests',
    select: SIGNING_REQUEST,
    filters,
  }),
  getOne({ path: ONE, summary: 'Get a signing request', description: 'One signing request with its signers, targets and per-signer audit trail (read access to its source collection)', name: 'SigningRequest', select: SIGNING_REQUEST }),
  route({
    method: 'POST',
    path: `${ONE}/resend`,
    summary: 'Resend signing links',
    description: 'Mail fresh links to unsigned signers whose turn it is: { signingRequestSignerSimplyIds? (default all of them), signingBaseUrl? }; a signed signer or a finished request: 400',
    operation: operation`mutation ResendSigningRequest($id: String!, $input: ResendSigningRequestInput) { resendSigningRequest(signingRequestSimplyId: $id, input: $input) { ${SIGNING_RESEND} } }`,
    body: resendSigningRequestInput.optional(),
    example: { signingRequestSignerSimplyIds: ['sgs-AB23-CD45-EF67'], signingBaseUrl: 'https://sign.example.org/s' },
    variables: ({ params, body }) => ({ id: params.signingRequestSimplyId, input: body ?? {} }),
  }),
  route({
    method: 'POST',
    path: `${ONE}/void`,
    summary: 'Void a signing request',
    description: 'Void an unfinished request: { reason? }; every signer link stops working; a finished request: 400',
    operation: operation`mutation VoidSigningRequest($id: String!, $input: VoidSigningRequestInput) { voidSigningRequest(signingRequestSimplyId: $id, input: $input) { ${SIGNING_VOIDED} } }`,
    body: voidSigningRequestInput.optional(),
    example: { reason: 'Sent to the wrong address' },
    variables: ({ params, body }) => ({ id: params.signingRequestSimplyId, input: body ?? {} }),
  }),
  route({
    method: 'GET',
    path: LINK,
    summary: 'Open a signing link',
    description: "Public, the signer's link (?token=): the review fields' values, the consent text and version, the signer's state; records viewed. No or an unusable token: 404",
    operation: operation`query SigningSession($token: String!) { signingSession(signingToken: $token) { ${SIGNING_SESSION} } }`,
    // optional here so that a missing token is the same 404 as an unknown one
    query: z.object({ token: signingToken.optional() }),
    variables: ({ query }) => ({ token: (query as { token?: string }).token ?? '' }),
  }),
  route({
    method: 'POST',
    path: `${LINK}/sign`,
    summary: 'Sign a signing request',
    description: 'Public: sign with { token, typedName? and/or signatureImage? (PNG data URL), consentAccepted: true, consentVersion }',
    operation: operation`mutation SignSigningRequest($token: String!, $input: SignSigningRequestInput!) { signSigningRequest(signingToken: $token, input: $input) { ${SIGNING_SESSION} } }`,
    body: signBody,
    example: { token: 'svc_sgn_Hq8vT3nW6kR1xZ9mP4cY7bL2fJ5dS0gA8eN3uK6wQ', typedName: 'Ada Lovelace', consentAccepted: true, consentVersion: '2026-01' },
    variables: ({ body }) => {
      const { token, ...input } = body as { token: string };
      return { token, input };
    },
  }),
  route({
    method: 'POST',
    path: `${LINK}/decline`,
    summary: 'Decline a signing request',
    description: 'Public: decline with { token, reason }; the request ends (declined) and every link stops working',
    operation: operation`mutation DeclineSigningRequest($token: String!, $input: DeclineSigningRequestInput!) { declineSigningRequest(signingToken: $token, input: $input) { ${SIGNING_SESSION} } }`,
    body: declineBody,
    example: { token: 'svc_sgn_Hq8vT3nW6kR1xZ9mP4cY7bL2fJ5dS0gA8eN3uK6wQ', reason: 'The address on the form is wrong' },
    variables: ({ body }) => {
      const { token, ...input } = body as { token: string };
      return { token, input };
    },
  }),
  getOne({
    path: '/v1/signing-settings',
    summary: 'Get signing settings',
    description: `The team's signing settings: { defaultExpirationDays (null: the platform default, ${SIGNING_LIMITS.defaultExpirationDays}), effectiveExpirationDays, platformDefaultExpirationDays, updatedAt } (team admin or TEAM_SETTINGS view)`,
    name: 'SigningSettings',
    select: SIGNING_SETTINGS,
  }),
  updateOne({
    method: 'PUT',
    path: '/v1/signing-settings',
    summary: 'Update signing settings',
    description: `Change the signing settings (team admin or TEAM_SETTINGS edit): { defaultExpirationDays: 1-${SIGNING_LIMITS.expirationDaysMax} or null (the platform default) }`,
    name: 'UpdateSigningSettings',
    inputType: 'SigningSettingsInput',
    body: signingSettingsInput,
    example: { defaultExpirationDays: 14 },
    select: SIGNING_SETTINGS,
  }),
], EXTENSIONS);
