// Bodies and queries of the action-tag routes (docs/api/action-tags.md "Tags"): 400
// VALIDATION_ERROR naming the field. Destinations are http(s) only; the texts of a link page are
// plain text, so anything that reads as markup is refused rather than escaped into something the
// team did not mean.
import { z } from 'zod';

export const ACTION_TAG_STATUSES = ['DRAFT', 'ACTIVE', 'INACTIVE', 'ARCHIVED', 'ARCHIVED_BY_DOWNGRADE'] as const;
export type ActionTagStatus = (typeof ACTION_TAG_STATUSES)[number];
export const ACTION_TYPES = ['URL', 'LINK_PAGE', 'DATA_WIZARD', 'DATA_RECORD'] as const;
export type ActionType = (typeof ACTION_TYPES)[number];
export const POWERED_TYPES: readonly ActionType[] = ['DATA_WIZARD', 'DATA_RECORD'];
export const POWERED_FIELDS = ['dataWizardSimplyId', 'dataRecordSimplyId', 'requireFreshScan'] as const;
export const LINK_PAGE_THEMES = ['SYSTEM', 'LIGHT', 'DARK'] as const;
export const ERROR_CORRECTION = ['L', 'M', 'Q', 'H'] as const;
export const ACTION_TAG_LIMITS = { name: 200, notes: 2000, url: 2048, title: 120, label: 80, callsToAction: 5, labels: 20, logoBytes: 65536 } as const;

/** a `<`/`>` or a control character: the text would not show as the team typed it */
const MARKUP = /[<>\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
const plainText = (max: number) =>
  z
    .string({ message: 'must be a string' })
    .trim()
    .min(1, 'must not be blank')
    .max(max, `at most ${max} characters`)
    .refine((s) => !MARKUP.test(s), 'must be plain text (no markup: < and > are refused)');

/** An absolute http(s) URL without credentials; other schemes (javascript:, data:, ftp:) are refused. */
export function httpUrlProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute http(s) URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must use http or https (other schemes are refused)';
  if (!url.hostname) return 'must name a host';
  if (url.username || url.password) return 'must not carry a user name or password';
  return null;
}

export const httpUrl = z
  .string({ message: 'must be a string' })
  .trim()
  .max(ACTION_TAG_LIMITS.url, `at most ${ACTION_TAG_LIMITS.url} characters`)
  .superRefine((value, ctx) => {
    const problem = httpUrlProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

const callToAction = z.strictObject({ label: plainText(ACTION_TAG_LIMITS.label), url: httpUrl });

export const linkPageSettingsInput = z.strictObject({
  title: plainText(ACTION_TAG_LIMITS.title),
  theme: z.enum(LINK_PAGE_THEMES, { message: 'must be SYSTEM, LIGHT or DARK' }).default('SYSTEM'),
  callsToAction: z
    .array(callToAction, { message: 'must be a list of { label, url }' })
    .min(1, 'at least one call to action')
    .max(ACTION_TAG_LIMITS.callsToAction, `at most ${ACTION_TAG_LIMITS.callsToAction} calls to action`),
});
export type LinkPageSettings = z.infer<typeof linkPageSettingsInput>;

const color = z.string({ message: 'must be a string' }).regex(/^#[0-9a-fA-F]{6}$/, 'must be a #RRGGBB color');
export const qrCodeSettingsInput = z.strictObject({
  foregroundColor: color.default('#000000'),
  backgroundColor: color.default('#ffffff'),
  errorCorrection: z.enum(ERROR_CORRECTION, { message: 'must be L, M, Q or H' }).default('M'),
  /** a PNG or JPEG, base64; drawn in the middle (error correction H is then used) */
  logoImageBase64: z
    .string({ message: 'must be a base64 string' })
    .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'must be base64')
    .max(Math.ceil((ACTION_TAG_LIMITS.logoBytes * 4) / 3) + 4, `at most ${ACTION_TAG_LIMITS.logoBytes} bytes`)
    .nullable()
    .optional(),
});
export type QrCodeSettings = z.infer<typeof qrCodeSettingsInput>;

const label = z.string({ message: 'must be a string' }).regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, 'must be a label id of letters, digits, _ . - (at most 64)');
const simplyIdLike = z.string({ message: 'must be a string' }).min(1, 'must not be blank').max(64, 'at most 64 characters');

const fields = {
  name: plainText(ACTION_TAG_LIMITS.name),
  notes: z.string({ message: 'must be a string' }).trim().max(ACTION_TAG_LIMITS.notes, `at most ${ACTION_TAG_LIMITS.notes} characters`).nullable().optional(),
  status: z.enum(ACTION_TAG_STATUSES, { message: 'must be DRAFT, ACTIVE, INACTIVE or ARCHIVED' }).optional(),
  actionType: z.enum(ACTION_TYPES, { message: 'must be URL, LINK_PAGE, DATA_WIZARD or DATA_RECORD' }).optional(),
  actionUrl: httpUrl.nullable().optional(),
  linkPageSettings: linkPageSettingsInput.nullable().optional(),
  qrCodeSettings: qrCodeSettingsInput.nullable().optional(),
  labelSimplyIds: z.array(label, { message: 'must be a list of label ids' }).max(ACTION_TAG_LIMITS.labels, `at most ${ACTION_TAG_LIMITS.labels} labels`).optional(),
  dataWizardSimplyId: simplyIdLike.nullable().optional(),
  dataRecordSimplyId: simplyIdLike.nullable().optional(),
  requireFreshScan: z.boolean({ message: 'must be true or false' }).optional(),
};

export const createActionTagInput = z.strictObject(fields);
export type CreateActionTagInput = z.infer<typeof createActionTagInput>;
export const updateActionTagInput = z.strictObject({ ...fields, name: fields.name.optional() });
export type UpdateActionTagInput = z.infer<typeof updateActionTagInput>;

export const bulkGenerateInput = z.strictObject({
  dataCollectionSimplyId: simplyIdLike,
  actionType: z.enum(['DATA_RECORD', 'DATA_WIZARD'], { message: 'must be DATA_RECORD or DATA_WIZARD' }).default('DATA_RECORD'),
  dataWizardSimplyId: simplyIdLike.nullable().optional(),
  actionUrl: httpUrl,
  status: z.enum(['DRAFT', 'ACTIVE', 'INACTIVE'], { message: 'must be DRAFT, ACTIVE or INACTIVE' }).default('DRAFT'),
  namePrefix: plainText(100).optional(),
  /** at most this many records, oldest first, that have no tag yet */
  limit: z.number({ message: 'must be a number' }).int('must be a whole number').min(1, 'at least 1').max(500, 'at most 500').default(100),
});
export type BulkGenerateInput = z.infer<typeof bulkGenerateInput>;

export const ACTION_TAG_EXAMPLE = {
  name: 'Spring gala poster',
  notes: 'Printed on the A2 posters in the lobby',
  status: 'ACTIVE',
  actionType: 'URL',
  actionUrl: 'https://example.org/gala',
  labelSimplyIds: ['gala-2026'],
  qrCodeSettings: { foregroundColor: '#1f2328', backgroundColor: '#ffffff', errorCorrection: 'M' },
};

export const LINK_PAGE_EXAMPLE = {
  name: 'Volunteer table card',
  status: 'ACTIVE',
  actionType: 'LINK_PAGE',
  linkPageSettings: {
    title: 'Thanks for stopping by',
    theme: 'SYSTEM',
    callsToAction: [
      { label: 'Sign up to volunteer', url: 'https://example.org/volunteer' },
      { label: 'Donate', url: 'https://example.org/donate' },
    ],
  },
};

export const SORT_COLUMNS = ['name', 'status', 'actionType', 'createdAt', 'updatedAt', 'lastScannedAt', 'lifetimeScans'] as const;
const isoDate = z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time' }).or(z.iso.date({ message: 'must be an ISO 8601 date' }));
const csvList = z.string({ message: 'must be a comma-separated list' }).max(2000, 'at most 2000 characters');

/** The list's filters, as the query string and the GraphQL arguments carry them (all optional strings). */
export const listActionTagsQuery = z.strictObject({
  limit: z.coerce.number({ message: 'must be a number' }).int('must be a whole number').min(1, 'at least 1').max(500, 'at most 500').optional(),
  offset: z.coerce.number({ message: 'must be a number' }).int('must be a whole number').min(0, 'at least 0').max(1_000_000, 'at most 1000000').optional(),
  status: csvList.optional().describe('one or more of DRAFT, ACTIVE, INACTIVE, ARCHIVED, ARCHIVED_BY_DOWNGRADE, comma-separated'),
  actionType: csvList.optional().describe('one or more of URL, LINK_PAGE, DATA_WIZARD, DATA_RECORD, comma-separated'),
  dataRecordSimplyId: z.string().max(64).optional(),
  dataCollectionSimplyId: z.string().max(64).optional(),
  hasLinkedRecord: z.enum(['true', 'false'], { message: 'must be true or false' }).optional(),
  labelSimplyIds: csvList.optional().describe('tags with any of these labels, comma-separated'),
  search: z.string().max(200, 'at most 200 characters').optional().describe('in name, notes and actionUrl'),
  destinationDomain: z.string().max(253, 'at most 253 characters').optional().describe('the host of actionUrl, exactly (case-insensitive)'),
  createdFrom: isoDate.optional(),
  createdTo: isoDate.optional(),
  lastScannedFrom: isoDate.optional(),
  lastScannedTo: isoDate.optional(),
  sort: z.string().max(300, 'at most 300 characters').optional().describe('column:direction clauses, comma-separated (name, status, actionType, createdAt, updatedAt, lastScannedAt, lifetimeScans; asc or desc)'),
});
export type ListActionTagsQuery = z.infer<typeof listActionTagsQuery>;

export const scansQuery = z.strictObject({
  limit: z.coerce.number({ message: 'must be a number' }).int('must be a whole number').min(1, 'at least 1').max(500, 'at most 500').optional(),
  offset: z.coerce.number({ message: 'must be a number' }).int('must be a whole number').min(0, 'at least 0').max(1_000_000, 'at most 1000000').optional(),
});
