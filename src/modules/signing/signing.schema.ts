// GraphQL face of signing requests (docs/api/signing-requests.md). REST: rest-adapter/routes/signing.ts.
// Team side: standard tier with records:read (reads) or records:write (writes) for scoped tokens;
// the data permissions on the source collection are checked by the service. Signer side: public,
// authorized by the link token alone.
import { tier } from '../../app/auth/tiers.ts';
import { builder } from '../../app/builder.ts';
import { pageArgs, withArgs } from '../../app/graphql/args.ts';
import { givenFields } from '../../app/graphql/input-fields.ts';
import { pageType } from '../../app/graphql/page.ts';
import { REQUEST_STATUSES, SIGNING_LIMITS } from './signing.input.ts';
import { createSigningRequest, getSigningRequest, listSigningRequests, resendSigningRequest, voidSigningRequest, type ListSigningRequestsArgs, type ResendResult } from './signing-requests.service.ts';
import { declineSigningRequest, signSigningRequest, viewSigningSession, type SigningSession } from './signer.service.ts';
import { requestStatusWord, signerStatusWord, type EventRow, type RequestView, type SignerView } from './signing-views.ts';

const SigningEventRef = builder.objectRef<EventRow>('SigningRequestEvent').implement({
  description: 'One entry of the audit trail: CREATED, SENT (detail.resend on a resend), VIEWED, SIGNED, DECLINED, VOIDED, EXPIRED, COMPLETED, FIELDS_WRITTEN, DOCUMENT_STORED…',
  fields: (t) => ({
    eventType: t.string({ resolve: (e) => e.eventType }),
    occurredAt: t.field({ type: 'DateTime', resolve: (e) => e.occurredAt }),
    ipAddress: t.string({ nullable: true, resolve: (e) => e.ipAddress }),
    userAgent: t.string({ nullable: true, resolve: (e) => e.userAgent }),
    detail: t.field({ type: 'JSON', nullable: true, resolve: (e) => e.detail }),
  }),
});

const SigningSignerRef = builder.objectRef<SignerView>('SigningRequestSigner').implement({
  description: 'One signer: who, in which order, where they are, and their own audit trail.',
  fields: (t) => ({
    signingRequestSignerSimplyId: t.string({ resolve: (s) => s.row.simplyId }),
    roleKey: t.string({ resolve: (s) => s.row.roleKey }),
    name: t.string({ nullable: true, resolve: (s) => s.row.name }),
    email: t.string({ nullable: true, resolve: (s) => s.row.email }),
    signingOrder: t.int({ resolve: (s) => s.row.signingOrder }),
    status: t.string({ description: 'waiting (an earlier signingOrder has not signed, or the request is not sent yet), sent, viewed, signed, declined', resolve: (s) => signerStatusWord(s.row.status) }),
    signedAt: t.field({ type: 'DateTime', nullable: true, resolve: (s) => s.row.signedAt }),
    declinedAt: t.field({ type: 'DateTime', nullable: true, resolve: (s) => s.row.declinedAt }),
    declineReason: t.string({ nullable: true, resolve: (s) => s.row.declineReason }),
    typedName: t.string({ nullable: true, resolve: (s) => s.row.typedName }),
    hasDrawnSignature: t.boolean({ resolve: (s) => s.row.signatureImage !== null }),
    consentVersionAccepted: t.string({ nullable: true, resolve: (s) => s.row.consentVersionAccepted }),
    linkIssuedAt: t.field({ type: 'DateTime', nullable: true, resolve: (s) => s.row.linkIssuedAt }),
    linkExpiresAt: t.field({ type: 'DateTime', nullable: true, resolve: (s) => s.row.linkExpiresAt }),
    linkActive: t.boolean({ description: 'whether the signer holds a link that works now', resolve: (s) => s.row.linkTokenHash !== null }),
    internalTeamUserLinkSimplyId: t.string({ nullable: true, resolve: (s) => s.row.internalTeamUserLinkSimplyId }),
    linkedConstituentDataRecordSimplyId: t.string({ nullable: true, resolve: (s) => s.linkedConstituentDataRecordSimplyId }),
    events: t.field({ type: [SigningEventRef], description: "this signer's audit trail, oldest first", resolve: (s) => s.events }),
  }),
});

type FileTarget = NonNullable<RequestView['row']['fileTarget']>;
const SigningFileTargetRef = builder.objectRef<FileTarget>('SigningFileTarget').implement({
  fields: (t) => ({
    fileFieldSimplyId: t.string({ resolve: (f) => f.fileFieldSimplyId }),
    fileSimplyId: t.string({ nullable: true, resolve: (f) => f.fileSimplyId ?? null }),
    sourceFileVersionNumber: t.int({ nullable: true, resolve: (f) => f.sourceFileVersionNumber ?? null }),
  }),
});

interface Target {
  targetType: 'SIGNATURE_FIELD' | 'FILE';
  dataFieldSimplyId: string;
  state: 'PENDING' | 'WRITTEN' | 'FAILED';
  fileSimplyId: string | null;
  versionNumber: number | null;
}

const SigningTargetRef = builder.objectRef<Target>('SigningTarget').implement({
  description: 'Where the outcome goes at completion: each signature field, and the file field of the signed PDF.',
  fields: (t) => ({
    targetType: t.string({ description: 'SIGNATURE_FIELD or FILE', resolve: (x) => x.targetType }),
    dataFieldSimplyId: t.string({ resolve: (x) => x.dataFieldSimplyId }),
    state: t.string({ description: 'PENDING until completion has written it, then WRITTEN (or FAILED: see the events)', resolve: (x) => x.state }),
    fileSimplyId: t.string({ nullable: true, resolve: (x) => x.fileSimplyId }),
    versionNumber: t.int({ nullable: true, resolve: (x) => x.versionNumber }),
  }),
});

function targetsOf(v: RequestView): Target[] {
  const types = new Set(v.events.map((e) => e.eventType));
  const fieldState = types.has('FIELDS_WRITTEN') ? 'WRITTEN' : types.has('FIELDS_WRITE_FAILED') ? 'FAILED' : 'PENDING';
  const out: Target[] = v.row.signatureFieldSimplyIds.map((id) => ({ targetType: 'SIGNATURE_FIELD', dataFieldSimplyId: id, state: fieldState, fileSimplyId: null, versionNumber: null }));
  if (v.row.fileTarget) {
    out.push({
      targetType: 'FILE',
      dataFieldSimplyId: v.row.fileTarget.fileFieldSimplyId,
      state: v.row.signedFileVersionNumber !== null ? 'WRITTEN' : types.has('DOCUMENT_FAILED') ? 'FAILED' : 'PENDING',
      fileSimplyId: v.signedFileSimplyId ?? v.row.fileTarget.fileSimplyId ?? null,
      versionNumber: v.row.signedFileVersionNumber,
    });
  }
  return out;
}

export const SigningRequestRef = builder.objectRef<RequestView>('SigningRequest').implement({
  description: 'A document sent to signers in order, with its state, signers, targets and audit trail.',
  fields: (t) => ({
    id: t.string({ resolve: (v) => v.row.simplyId }),
    signingRequestSimplyId: t.string({ resolve: (v) => v.row.simplyId }),
    status: t.string({ description: REQUEST_STATUSES.join(', '), resolve: (v) => requestStatusWord(v.row.status) }),
    sourceDataCollectionSimplyId: t.string({ resolve: (v) => v.sourceDataCollectionSimplyId }),
    sourceDataRecordSimplyId: t.string({ nullable: true, resolve: (v) => v.sourceDataRecordSimplyId }),
    reviewFieldSimplyIds: t.stringList({ resolve: (v) => v.row.reviewFieldSimplyIds }),
    signatureFieldSimplyIds: t.stringList({ resolve: (v) => v.row.signatureFieldSimplyIds }),
    fileTarget: t.field({ type: SigningFileTargetRef, nullable: true, resolve: (v) => v.row.fileTarget }),
    signingProfileSimplyId: t.string({ nullable: true, resolve: (v) => v.row.signingProfileSimplyId }),
    signingWizardSimplyId: t.string({ nullable: true, resolve: (v) => v.row.signingWizardSimplyId }),
    contentTemplateSimplyId: t.string({ nullable: true, resolve: (v) => v.contentTemplateSimplyId }),
    consentText: t.field({ type: 'JSON', nullable: true, resolve: (v) => v.row.consentText }),
    consentVersion: t.string({ nullable: true, resolve: (v) => v.row.consentVersion }),
    signingBaseUrl: t.string({ nullable: true, resolve: (v) => v.row.signingBaseUrl }),
    expiresAt: t.field({ type: 'DateTime', resolve: (v) => v.row.expiresAt }),
    voidedAt: t.field({ type: 'DateTime', nullable: true, resolve: (v) => v.row.voidedAt }),
    voidReason: t.string({ nullable: true, resolve: (v) => v.row.voidReason }),
    completedAt: t.field({ type: 'DateTime', nullable: true, resolve: (v) => v.row.completedAt }),
    sourceDocumentSha256: t.string({ nullable: true, description: 'SHA-256 (hex) of the document the signers reviewed; set with the signed PDF', resolve: (v) => v.row.sourceDocumentSha256 }),
    completedDocumentSha256: t.string({ nullable: true, description: 'SHA-256 (hex) of the signed PDF', resolve: (v) => v.row.completedDocumentSha256 }),
    signedFileSimplyId: t.string({ nullable: true, resolve: (v) => v.signedFileSimplyId }),
    signedFileVersionNumber: t.int({ nullable: true, resolve: (v) => v.row.signedFileVersionNumber }),
    signers: t.field({ type: [SigningSignerRef], description: 'in signing order', resolve: (v) => v.signers }),
    targets: t.field({ type: [SigningTargetRef], resolve: targetsOf }),
    events: t.field({ type: [SigningEventRef], description: 'the whole audit trail (request and signer events), oldest first', resolve: (v) => v.events }),
    createdAt: t.field({ type: 'DateTime', resolve: (v) => v.row.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (v) => v.row.updatedAt }),
  }),
});

const SigningRequestPageRef = pageType('SigningRequestPage', SigningRequestRef);

type Link = ResendResult['links'][number];
const SigningLinkRef = builder.objectRef<Link>('SigningLinkIssued').implement({
  description: 'A fresh link was mailed to this signer (the link itself travels only by mail).',
  fields: (t) => ({
    signingRequestSignerSimplyId: t.string({ resolve: (l) => l.signingRequestSignerSimplyId }),
    email: t.string({ nullable: true, resolve: (l) => l.email }),
    linkIssuedAt: t.field({ type: 'DateTime', resolve: (l) => l.linkIssuedAt }),
    linkExpiresAt: t.field({ type: 'DateTime', resolve: (l) => l.linkExpiresAt }),
  }),
});

const SigningResendRef = builder.objectRef<ResendResult>('SigningResendResult').implement({
  fields: (t) => ({
    signingRequestSimplyId: t.string({ resolve: (r) => r.signingRequestSimplyId }),
    status: t.string({ resolve: (r) => r.status }),
    resentSignerSimplyIds: t.stringList({ resolve: (r) => r.resentSignerSimplyIds }),
    links: t.field({ type: [SigningLinkRef], resolve: (r) => r.links }),
  }),
});

type SessionSigner = SigningSession['signer'];
const SigningSessionSignerRef = builder.objectRef<SessionSigner>('SigningSessionSigner').implement({
  fields: (t) => ({
    signingRequestSignerSimplyId: t.string({ resolve: (s) => s.signingRequestSignerSimplyId }),
    roleKey: t.string({ resolve: (s) => s.roleKey }),
    name: t.string({ nullable: true, resolve: (s) => s.name }),
    email: t.string({ nullable: true, resolve: (s) => s.email }),
    signingOrder: t.int({ resolve: (s) => s.signingOrder }),
    status: t.string({ resolve: (s) => s.status }),
    signedAt: t.field({ type: 'DateTime', nullable: true, resolve: (s) => s.signedAt }),
  }),
});

type ReviewField = SigningSession['reviewFields'][number];
const SigningReviewFieldRef = builder.objectRef<ReviewField>('SigningReviewField').implement({
  fields: (t) => ({
    dataFieldSimplyId: t.string({ resolve: (f) => f.dataFieldSimplyId }),
    label: t.string({ resolve: (f) => f.label }),
    value: t.string({ resolve: (f) => f.value }),
  }),
});

const SigningSessionRef = builder.objectRef<SigningSession>('SigningSession').implement({
  description: "What a signer's link shows: the document's review fields, the consent to accept, and the signer's own state.",
  fields: (t) => ({
    signingRequestSimplyId: t.string({ resolve: (s) => s.signingRequestSimplyId }),
    title: t.string({ resolve: (s) => s.title }),
    status: t.string({ description: 'the request state', resolve: (s) => s.status }),
    expiresAt: t.field({ type: 'DateTime', resolve: (s) => s.expiresAt }),
    signer: t.field({ type: SigningSessionSignerRef, resolve: (s) => s.signer }),
    reviewFields: t.field({ type: [SigningReviewFieldRef], resolve: (s) => s.reviewFields }),
    consentText: t.field({ type: 'JSON', nullable: true, description: 'language tag → text', resolve: (s) => s.consentText }),
    consentVersion: t.string({ nullable: true, description: 'send it back with the signature', resolve: (s) => s.consentVersion }),
    canSign: t.boolean({ resolve: (s) => s.canSign }),
  }),
});

const SignerInput = builder.inputType('SigningSignerInput', {
  fields: (t) => ({
    roleKey: t.string({ required: true }),
    name: t.string(),
    email: t.string(),
    nameFieldSimplyId: t.string(),
    emailFieldSimplyId: t.string(),
    signingOrder: t.int({ description: 'at least 1 (default 1); equal orders sign in parallel' }),
    internalTeamUserLinkSimplyId: t.string(),
    linkedConstituentDataCollectionSimplyId: t.string(),
    linkedConstituentDataRecordSimplyId: t.string(),
  }),
});

const FileTargetInput = builder.inputType('SigningFileTargetInput', {
  fields: (t) => ({
    fileFieldSimplyId: t.string({ description: 'required' }),
    fileSimplyId: t.string(),
    sourceFileVersionNumber: t.int(),
  }),
});

const CreateInput = builder.inputType('CreateSigningRequestInput', {
  fields: (t) => ({
    sourceDataCollectionSimplyId: t.string({ required: true }),
    sourceDataRecordSimplyId: t.string({ required: true }),
    reviewFieldSimplyIds: t.stringList({ description: 'at least one; read access to each' }),
    signers: t.field({ type: [SignerInput], description: `1-${SIGNING_LIMITS.signers}` }),
    signatureFieldSimplyIds: t.stringList({ description: 'update access to each' }),
    fileTarget: t.field({ type: FileTargetInput }),
    signingProfileSimplyId: t.string(),
    signingWizardSimplyId: t.string(),
    contentTemplateSimplyId: t.string({ description: 'a document template backing the request: refused while its readiness has blocking issues' }),
    consentText: t.field({ type: 'JSON', description: 'language tag → text' }),
    consentVersion: t.string(),
    expirationDays: t.int({ description: `1-${SIGNING_LIMITS.expirationDaysMax}; or expiresAt; neither: the team's default expiry (signingSettings), else ${SIGNING_LIMITS.defaultExpirationDays} days` }),
    expiresAt: t.string({ description: 'ISO 8601; or expirationDays' }),
    signingBaseUrl: t.string(),
    sendImmediately: t.boolean({ description: 'default true' }),
  }),
});

const ResendInput = builder.inputType('ResendSigningRequestInput', {
  fields: (t) => ({
    signingRequestSignerSimplyIds: t.stringList({ description: 'default: every unsigned signer whose turn it is' }),
    signingBaseUrl: t.string(),
  }),
});

const VoidInput = builder.inputType('VoidSigningRequestInput', { fields: (t) => ({ reason: t.string() }) });
const SignInput = builder.inputType('SignSigningRequestInput', {
  fields: (t) => ({
    typedName: t.string(),
    signatureImage: t.string({ description: `data:image/png;base64,… (at most ${SIGNING_LIMITS.signatureImageBytes / 1024} KB)` }),
    consentAccepted: t.boolean({ required: true }),
    consentVersion: t.string(),
  }),
});
const DeclineInput = builder.inputType('DeclineSigningRequestInput', { fields: (t) => ({ reason: t.string({ required: true }) }) });

builder.queryFields((t) => ({
  signingRequests: t.field({
    type: SigningRequestPageRef,
    description: 'Signing requests on records of collections the caller may read, newest first.',
    authScopes: tier.standardScoped('records:read'),
    args: {
      ...pageArgs(t.arg),
      status: t.arg.string(),
      sourceDataCollectionSimplyId: t.arg.string(),
      sourceDataRecordSimplyId: t.arg.string(),
      signingProfileSimplyId: t.arg.string(),
    },
    resolve: withArgs((ctx, args: ListSigningRequestsArgs) => listSigningRequests(ctx, args)),
  }),
  signingRequest: t.field({
    type: SigningRequestRef,
    description: 'One request with its signers, targets and audit trail (read access to its source collection).',
    authScopes: tier.standardScoped('records:read'),
    args: { signingRequestSimplyId: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => getSigningRequest(ctx, args.signingRequestSimplyId),
  }),
  signingSession: t.field({
    type: SigningSessionRef,
    description: "A signer's link: the document to review. Records VIEWED (the signer's first opening moves a sent request to viewed).",
    authScopes: tier.publicLink,
    args: { signingToken: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => viewSigningSession(ctx, args.signingToken),
  }),
}));

builder.mutationFields((t) => ({
  createSigningRequest: t.field({
    type: SigningRequestRef,
    description: 'Create a signing request (update access to the source collection); with sendImmediately (default) the first signers are mailed their links.',
    authScopes: tier.standardScoped('records:write'),
    args: { input: t.arg({ type: CreateInput, required: true }) },
    resolve: async (_root, args, ctx) => createSigningRequest(ctx, givenFields(args.input)),
  }),
  resendSigningRequest: t.field({
    type: SigningResendRef,
    description: 'Mail fresh links to unsigned signers whose turn it is (all of them by default); the old links stop working.',
    authScopes: tier.standardScoped('records:write'),
    args: { signingRequestSimplyId: t.arg.string({ required: true }), input: t.arg({ type: ResendInput }) },
    resolve: (_root, args, ctx) => resendSigningRequest(ctx, args.signingRequestSimplyId, args.input ? givenFields(args.input) : {}),
  }),
  voidSigningRequest: t.field({
    type: SigningRequestRef,
    description: 'Void an unfinished request (optional reason); every link stops working.',
    authScopes: tier.standardScoped('records:write'),
    args: { signingRequestSimplyId: t.arg.string({ required: true }), input: t.arg({ type: VoidInput }) },
    resolve: (_root, args, ctx) => voidSigningRequest(ctx, args.signingRequestSimplyId, args.input ? givenFields(args.input) : {}),
  }),
  signSigningRequest: t.field({
    type: SigningSessionRef,
    description: "Sign through a signer's link: typedName and/or signatureImage, consentAccepted true and the consentVersion shown.",
    authScopes: tier.publicLink,
    args: { signingToken: t.arg.string({ required: true }), input: t.arg({ type: SignInput, required: true }) },
    resolve: (_root, args, ctx) => signSigningRequest(ctx, args.signingToken, givenFields(args.input)),
  }),
  declineSigningRequest: t.field({
    type: SigningSessionRef,
    description: "Decline through a signer's link, with a reason: the request ends (declined) and every link stops working.",
    authScopes: tier.publicLink,
    args: { signingToken: t.arg.string({ required: true }), input: t.arg({ type: DeclineInput, required: true }) },
    resolve: (_root, args, ctx) => declineSigningRequest(ctx, args.signingToken, givenFields(args.input)),
  }),
}));
