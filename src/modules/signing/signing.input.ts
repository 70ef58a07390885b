// Bodies of the signing routes (docs/api/signing-requests.md) and the words the API shows for the
// stored states. Both faces validate with these: the REST table before the operation runs, the
// service again for GraphQL callers.
import { z } from 'zod';

/** Stored request states → the words the API shows. */
export const REQUEST_STATUS_WORDS = {
  CREATED: 'created',
  SENT: 'sent',
  VIEWED: 'viewed',
  PARTIALLY_SIGNED: 'partiallySigned',
  COMPLETED: 'completed',
  DECLINED: 'declined',
  EXPIRED: 'expired',
  VOIDED: 'voided',
} as const;
export type RequestStatus = keyof typeof REQUEST_STATUS_WORDS;
export const REQUEST_STATUSES = Object.values(REQUEST_STATUS_WORDS);

/** Stored signer states → API words. */
export const SIGNER_STATUS_WORDS = { WAITING: 'waiting', SENT: 'sent', VIEWED: 'viewed', SIGNED: 'signed', DECLINED: 'declined' } as const;
export const SIGNER_STATUSES = Object.values(SIGNER_STATUS_WORDS);

/** States nothing leaves. */
export const TERMINAL: readonly RequestStatus[] = ['COMPLETED', 'DECLINED', 'EXPIRED', 'VOIDED'];
/** States a request can still move on from (sending, viewing, signing, expiring, voiding). */
export const IN_FLIGHT: readonly RequestStatus[] = ['CREATED', 'SENT', 'VIEWED', 'PARTIALLY_SIGNED'];

export const SIGNING_LIMITS = {
  reviewFields: 100,
  signatureFields: 50,
  signers: 20,
  roleKey: 100,
  name: 200,
  reason: 1000,
  consentVersion: 100,
  consentText: 20_000,
  /** days a request (and its links) may stay usable at most */
  expirationDaysMax: 365,
  /** days a request stays usable when its create gives neither expirationDays nor expiresAt and the team has no default of its own */
  defaultExpirationDays: 30,
  url: 2000,
  typedName: 200,
  /** decoded PNG bytes of a drawn signature */
  signatureImageBytes: 200 * 1024,
} as const;

const dataId = z.string({ message: 'must be a simplyId (XXXX-XXXX-XXXX)' }).regex(/^[A-Za-z0-9]{4}-[A-Za-z0-9]{4}-[A-Za-z0-9]{4}$/, 'must be a simplyId (XXXX-XXXX-XXXX)');
const fieldId = z.string({ message: 'must be a field simplyId (fld-XXXX-XXXX-XXXX)' }).regex(/^fld-[A-Za-z0-9]{4}-[A-Za-z0-9]{4}-[A-Za-z0-9]{4}$/, 'must be a field simplyId (fld-XXXX-XXXX-XXXX)');
const optionalText = (max: number) => z.string().trim().max(max, `must be at most ${max} characters`).transform((v) => (v === '' ? null : v)).nullable().optional();

/** http(s) only: the link is opened by a signer's browser. */
export const baseUrl = z
  .string()
  .max(SIGNING_LIMITS.url, `must be at most ${SIGNING_LIMITS.url} characters`)
  .refine((v) => {
    try {
      const url = new URL(v);
      return (url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password;
    } catch {
      return false;
    }
  }, 'must be an absolute http(s) URL without credentials');

const signer = z
  .object({
    roleKey: z.string({ message: 'is required' }).trim().min(1, 'is required').max(SIGNING_LIMITS.roleKey, `must be at most ${SIGNING_LIMITS.roleKey} characters`),
    name: optionalText(SIGNING_LIMITS.name),
    email: z.string().trim().max(254, 'must be at most 254 characters').nullable().optional(),
    nameFieldSimplyId: fieldId.nullable().optional(),
    emailFieldSimplyId: fieldId.nullable().optional(),
    signingOrder: z.number({ message: 'must be an integer of at least 1' }).int('must be an integer of at least 1').min(1, 'must be an integer of at least 1').max(100, 'must be at most 100').nullable().optional(),
    internalTeamUserLinkSimplyId: z.string().nullable().optional(),
    linkedConstituentDataCollectionSimplyId: dataId.nullable().optional(),
    linkedConstituentDataRecordSimplyId: dataId.nullable().optional(),
  })
  .strict();

const fileTarget = z
  .object({
    fileFieldSimplyId: fieldId.optional(),
    fileSimplyId: z.string().nullable().optional(),
    sourceFileVersionNumber: z.number().int('must be an integer').min(1, 'must be at least 1').nullable().optional(),
  })
  .strict()
  .superRefine((t, ctx) => {
    if (t.fileFieldSimplyId === undefined) ctx.addIssue({ code: 'custom', path: ['fileFieldSimplyId'], message: 'is required when fileTarget is given' });
    if (t.sourceFileVersionNumber != null && t.fileSimplyId == null) ctx.addIssue({ code: 'custom', path: ['sourceFileVersionNumber'], message: 'needs fileSimplyId' });
  });

const consentText = z
  .record(z.string(), z.string().max(SIGNING_LIMITS.consentText, `must be at most ${SIGNING_LIMITS.consentText} characters`))
  .refine((v) => Object.keys(v).every((k) => /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(k)), 'keys must be language tags (en, de-CH, …)')
  .nullable()
  .optional();

export const createSigningRequestInput = z
  .object({
    sourceDataCollectionSimplyId: dataId,
    sourceDataRecordSimplyId: dataId,
    reviewFieldSimplyIds: z.array(fieldId, { message: 'is required (at least one field)' }).min(1, 'needs at least one field').max(SIGNING_LIMITS.reviewFields, `at most ${SIGNING_LIMITS.reviewFields} fields`),
    signers: z.array(signer, { message: 'is required (at least one signer)' }).min(1, 'needs at least one signer').max(SIGNING_LIMITS.signers, `at most ${SIGNING_LIMITS.signers} signers`),
    signatureFieldSimplyIds: z.array(fieldId).max(SIGNING_LIMITS.signatureFields, `at most ${SIGNING_LIMITS.signatureFields} fields`).nullable().optional(),
    fileTarget: fileTarget.nullable().optional(),
    signingProfileSimplyId: z.string().max(100).nullable().optional(),
    signingWizardSimplyId: z.string().max(100).nullable().optional(),
    contentTemplateSimplyId: z.string().max(100).nullable().optional(),
    consentText,
    consentVersion: optionalText(SIGNING_LIMITS.consentVersion),
    expirationDays: z.number({ message: 'must be an integer' }).int('must be an integer').min(1, 'must be at least 1').max(SIGNING_LIMITS.expirationDaysMax, `must be at most ${SIGNING_LIMITS.expirationDaysMax}`).nullable().optional(),
    // kept as the text given (both faces hand the body on as JSON); the service reads it with expiryOf
    expiresAt: z.string({ message: 'must be an ISO 8601 date-time' }).refine((v) => /^\d{4}-\d{2}-\d{2}T/.test(v) && !Number.isNaN(Date.parse(v)), 'must be an ISO 8601 date-time').nullable().optional(),
    signingBaseUrl: baseUrl.nullable().optional(),
    sendImmediately: z.boolean({ message: 'must be true or false' }).nullable().optional(),
  })
  .strict()
  .superRefine((input, ctx) => {
    if (input.expirationDays != null && input.expiresAt != null) {
      ctx.addIssue({ code: 'custom', path: ['expiresAt'], message: 'give expirationDays or expiresAt, not both' });
    }
    const expiresAt = input.expiresAt != null ? Date.parse(input.expiresAt) : Number.NaN;
    if (!Number.isNaN(expiresAt) && expiresAt <= Date.now()) {
      ctx.addIssue({ code: 'custom', path: ['expiresAt'], message: 'must be in the future' });
    }
    if (!Number.isNaN(expiresAt) && expiresAt > Date.now() + SIGNING_LIMITS.expirationDaysMax * 86_400_000) {
      ctx.addIssue({ code: 'custom', path: ['expiresAt'], message: `must be at most ${SIGNING_LIMITS.expirationDaysMax} days ahead` });
    }
    input.signers.forEach((s, i) => {
      if (s.email == null && s.emailFieldSimplyId == null) {
        ctx.addIssue({ code: 'custom', path: ['signers', i, 'email'], message: 'give email or emailFieldSimplyId (the invitation is mailed)' });
      }
      if (s.email != null && s.emailFieldSimplyId != null) ctx.addIssue({ code: 'custom', path: ['signers', i, 'emailFieldSimplyId'], message: 'give email or emailFieldSimplyId, not both' });
      if (s.name != null && s.nameFieldSimplyId != null) ctx.addIssue({ code: 'custom', path: ['signers', i, 'nameFieldSimplyId'], message: 'give name or nameFieldSimplyId, not both' });
      if (s.linkedConstituentDataCollectionSimplyId != null && s.linkedConstituentDataRecordSimplyId == null) {
        ctx.addIssue({ code: 'custom', path: ['signers', i, 'linkedConstituentDataRecordSimplyId'], message: 'is required with linkedConstituentDataCollectionSimplyId' });
      }
    });
    const roles = input.signers.map((s) => s.roleKey);
    roles.forEach((r, i) => {
      if (roles.indexOf(r) !== i) ctx.addIssue({ code: 'custom', path: ['signers', i, 'roleKey'], message: 'must be unique within the request' });
    });
  });
export type CreateSigningRequestInput = z.output<typeof createSigningRequestInput>;

const expirationDaysMessage = `must be an integer from 1 to ${SIGNING_LIMITS.expirationDaysMax}, or null for the platform default (${SIGNING_LIMITS.defaultExpirationDays})`;

/** PUT /v1/signing-settings: the team's default expiry; null returns to the platform default. */
export const signingSettingsInput = z
  .object({
    defaultExpirationDays: z
      .number({ message: expirationDaysMessage })
      .int(expirationDaysMessage)
      .min(1, expirationDaysMessage)
      .max(SIGNING_LIMITS.expirationDaysMax, expirationDaysMessage)
      .nullable(),
  })
  .strict();
export type SigningSettingsInput = z.output<typeof signingSettingsInput>;

/** An optional body: `{}` or nothing resends to every unsigned signer whose turn it is. */
export const resendSigningRequestInput = z
  .object({
    signingRequestSignerSimplyIds: z.array(z.string()).min(1, 'give at least one signer, or leave the list out for all unsigned signers').max(SIGNING_LIMITS.signers).nullable().optional(),
    signingBaseUrl: baseUrl.nullable().optional(),
  })
  .strict();
export type ResendSigningRequestInput = z.output<typeof resendSigningRequestInput>;

export const voidSigningRequestInput = z
  .object({ reason: optionalText(SIGNING_LIMITS.reason) })
  .strict();

export const listSigningRequestsQuery = {
  status: z.string().optional().describe(`only requests in this state: ${REQUEST_STATUSES.join(', ')}`),
  sourceDataCollectionSimplyId: z.string().optional().describe('only requests on records of this collection'),
  sourceDataRecordSimplyId: z.string().optional().describe('only requests on this record'),
  signingProfileSimplyId: z.string().optional().describe('only requests of this signing profile'),
};

const PNG_DATA_URL = /^data:image\/png;base64,([A-Za-z0-9+/]+={0,2})$/;
const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The bytes of a drawn signature's data URL (checked by signInput). */
export function pngBytes(dataUrl: string): Buffer {
  return Buffer.from(PNG_DATA_URL.exec(dataUrl)?.[1] ?? '', 'base64');
}

const signFields = {
  typedName: optionalText(SIGNING_LIMITS.typedName),
  signatureImage: z
    .string()
    .max(Math.ceil((SIGNING_LIMITS.signatureImageBytes * 4) / 3) + 40, `must be a PNG of at most ${SIGNING_LIMITS.signatureImageBytes / 1024} KB`)
    .regex(PNG_DATA_URL, 'must be a data URL: data:image/png;base64,…')
    .superRefine((v, ctx) => {
      const bytes = pngBytes(v);
      if (bytes.length > SIGNING_LIMITS.signatureImageBytes) ctx.addIssue({ code: 'custom', message: `must be a PNG of at most ${SIGNING_LIMITS.signatureImageBytes / 1024} KB` });
      else if (bytes.length < 8 || !bytes.subarray(0, 8).equals(PNG_MAGIC)) ctx.addIssue({ code: 'custom', message: 'is not a PNG image' });
    })
    .nullable()
    .optional(),
  consentAccepted: z.literal(true, { message: 'must be true: the signer accepts the consent text' }),
  consentVersion: optionalText(SIGNING_LIMITS.consentVersion),
};

function signatureGiven(input: { typedName?: string | null; signatureImage?: string | null }, ctx: z.RefinementCtx): void {
  if (input.typedName == null && input.signatureImage == null) ctx.addIssue({ code: 'custom', path: ['typedName'], message: 'give typedName, signatureImage, or both' });
}

/** The link's token: a query parameter (GET) or a body field (POST), never a path segment. */
export const signingToken = z.string({ message: 'is required: the token of the signing link' }).max(200, 'is not a signing link token');

export const signInput = z.object(signFields).strict().superRefine(signatureGiven);
/** POST /v1/signing/sign: the token and the signature. */
export const signBody = z.object({ token: signingToken, ...signFields }).strict().superRefine(signatureGiven);

const declineFields = {
  reason: z.string({ message: 'is required' }).trim().min(1, 'is required').max(SIGNING_LIMITS.reason, `must be at most ${SIGNING_LIMITS.reason} characters`),
};
export const declineInput = z.object(declineFields).strict();
/** POST /v1/signing/decline: the token and the reason. */
export const declineBody = z.object({ token: signingToken, ...declineFields }).strict();
