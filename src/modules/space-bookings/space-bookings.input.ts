// Bodies of the space-bookings routes, shared by the REST table and the services. The REST table
// accepts any JSON object (`jsonBody`) so that every malformed body is answered by the service with
// the area's own 400, SVC_SPACES_BOOKING_REQUEST_INVALID, naming each field (parseBody).
import { z } from 'zod';
import { simplyIdPattern } from '../../app/ids.ts';
import { dataFieldId } from '../../kernel/index.ts';
import { BookingRequestInvalidError } from './space-bookings.errors.ts';

/** what the REST table checks itself: a JSON object; the service checks the rest */
export const jsonBody = z.record(z.string(), z.unknown());

const collectionId = z.string().regex(simplyIdPattern(), 'must be a collection simplyId (XXXX-XXXX-XXXX)');
const fieldId = z.string().regex(dataFieldId.pattern, 'must be a field simplyId (fld-XXXX-XXXX-XXXX)');
const recordId = z.string().regex(simplyIdPattern(), 'must be a record simplyId (XXXX-XXXX-XXXX)');
/** an instant with an explicit offset (Z or ±hh:mm): a local time alone is ambiguous */
const instant = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i, 'must be an ISO 8601 date-time with a UTC offset (2026-03-29T10:00:00+02:00 or …Z)');
const plainDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date (YYYY-MM-DD)');
const wallTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$|^24:00$/, 'must be a time of day (HH:MM, 00:00 to 24:00)');
const minutes = (max: number) => z.number().int('must be a whole number of minutes').min(0).max(max);
const positiveMinutes = (max: number) => z.number().int('must be a whole number of minutes').min(1).max(max);
const name = z.string().trim().min(1, 'must not be empty').max(200);

export const spacesMapping = z.strictObject({
  dataCollectionSimplyId: collectionId,
  displayNameFieldSimplyId: fieldId,
  capacityFieldSimplyId: fieldId.optional(),
  publicDetails: z
    .strictObject({ rateLabelFieldSimplyId: fieldId.optional(), highlightsFieldSimplyId: fieldId.optional() })
    .optional(),
});

export const bookingsMapping = z.strictObject({
  dataCollectionSimplyId: collectionId,
  startsAtFieldSimplyId: fieldId,
  endsAtFieldSimplyId: fieldId,
  spacesFieldSimplyId: fieldId,
  titleFieldSimplyId: fieldId,
  notesFieldSimplyId: fieldId.optional(),
  statusFieldSimplyId: fieldId,
  requesterFieldSimplyId: fieldId.optional(),
  amountFieldSimplyId: fieldId.optional(),
});

export const peopleMapping = z.strictObject({
  dataCollectionSimplyId: collectionId,
  displayNameFieldSimplyId: fieldId.optional(),
  emailFieldSimplyId: fieldId.optional(),
});

export const mappingInput = z.strictObject({ spaces: spacesMapping, bookings: bookingsMapping, people: peopleMapping.optional() });
export type Mapping = z.output<typeof mappingInput>;

export const createConnectionInput = z.strictObject({ name, mapping: mappingInput.optional() });
export const mappingBody = z.strictObject({ mapping: mappingInput });

export const WEEKDAYS = ['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY', 'SUNDAY'] as const;

const weeklyWindow = z
  .strictObject({ dayOfWeek: z.enum(WEEKDAYS), start: wallTime, end: wallTime })
  .refine((w) => w.start < w.end, { message: 'end must be after start (windows do not cross midnight; use two)', path: ['end'] });

export const availabilityPolicyInput = z
  .strictObject({
    timeZone: z.string().refine(isTimeZone, 'must be an IANA time zone (Europe/Berlin)'),
    leadTimeMinutes: minutes(525_600).default(0),
    maximumAdvanceDays: z.number().int().min(1).max(730).default(365),
    weeklyWindows: z.array(weeklyWindow).min(1, 'needs at least one weekly window').max(70),
    slotIncrementMinutes: positiveMinutes(1440).default(30),
    bufferBeforeMinutes: minutes(1440).default(0),
    bufferAfterMinutes: minutes(1440).default(0),
    minimumDurationMinutes: positiveMinutes(10_080).default(30),
    maximumDurationMinutes: positiveMinutes(10_080).default(240),
    defaultDurationMinutes: positiveMinutes(10_080).optional(),
    closures: z.array(z.strictObject({ startsAt: instant, endsAt: instant, reason: z.string().max(200).optional() })).max(500).default([]),
  })
  .refine((p) => p.minimumDurationMinutes <= p.maximumDurationMinutes, { message: 'must not exceed maximumDurationMinutes', path: ['minimumDurationMinutes'] });
export type AvailabilityPolicy = z.output<typeof availabilityPolicyInput>;

export const PRICING_MODES = ['FREE', 'PER_HOUR', 'PER_SLOT', 'FLAT', 'PACKAGE'] as const;
const minor = z.number().int('must be an integer amount of minor units').min(0).max(100_000_000_000);
export const pricingInput = z
  .strictObject({
    mode: z.enum(PRICING_MODES),
    currencyCode: z.string().regex(/^[A-Z]{3}$/, 'must be an ISO 4217 currency code (EUR)'),
    amountMinorUnits: minor.default(0),
    packages: z.array(z.strictObject({ packageRecordSimplyId: recordId, label: name, amountMinorUnits: minor })).max(50).default([]),
  })
  .refine((p) => p.mode !== 'PACKAGE' || p.packages.length > 0, { message: 'PACKAGE pricing needs at least one package', path: ['packages'] });
export type Pricing = z.output<typeof pricingInput>;

export const AUDIENCES = ['PUBLIC', 'AUTHORIZED_CONSTITUENT', 'INTERNAL_TEAM'] as const;
export const PAYMENT_POLICIES = ['NONE', 'PAY_ONLINE', 'PAY_ON_SITE_DEPOSIT'] as const;
export const BOOKING_STATUSES = ['PENDING_APPROVAL', 'CONFIRMED', 'CANCELLED', 'DENIED'] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

export const linkInput = z.strictObject({
  name,
  audience: z.enum(AUDIENCES),
  allowAnonymousAvailability: z.boolean().default(false),
  paymentPolicy: z.enum(PAYMENT_POLICIES).default('NONE'),
  outcomePolicy: z
    .strictObject({ initialStatus: z.enum(['PENDING_APPROVAL', 'CONFIRMED']).default('PENDING_APPROVAL'), confirmationMessage: z.string().max(2000).optional() })
    .default({ initialStatus: 'PENDING_APPROVAL' }),
});

export const provisionInput = z.strictObject({
  bookingChannel: z.strictObject({
    name,
    spaceRecordSimplyIds: z.array(recordId).min(1).max(200),
    availabilityPolicy: availabilityPolicyInput,
    pricing: pricingInput.default({ mode: 'FREE', currencyCode: 'EUR', amountMinorUnits: 0, packages: [] }),
    bookingWriteMapping: z.strictObject({ initialStatus: z.enum(['PENDING_APPROVAL', 'CONFIRMED']).default('PENDING_APPROVAL') }).default({ initialStatus: 'PENDING_APPROVAL' }),
    bookingLinks: z.array(linkInput).max(20).default([]),
    generateWizards: z.boolean().default(false),
  }),
});
export type ProvisionInput = z.output<typeof provisionInput>;

const range = { startsAt: instant, endsAt: instant };
const spaceIds = z.array(recordId).max(200);
const publicToken = { publicAccessToken: z.string().max(200).optional() };
const channelRef = { bookingChannelSimplyId: z.string().max(40), bookingLinkSimplyId: z.string().max(40).optional() };

export const availabilityBody = z.strictObject({ ...range, spaceRecordSimplyIds: spaceIds.optional(), ...publicToken });
export const slotsBody = z.strictObject({ ...range, durationMinutes: positiveMinutes(10_080).optional(), spaceRecordSimplyIds: spaceIds.optional(), ...publicToken });
export const slotGridBody = z
  .strictObject({
    spaceRecordSimplyId: recordId.optional(),
    fromDate: plainDate,
    toDate: plainDate,
    durationMinutes: positiveMinutes(10_080).optional(),
    includeSpaces: z.boolean().default(false),
    ...publicToken,
  })
  .refine((b) => b.toDate >= b.fromDate, { message: 'must not be before fromDate', path: ['toDate'] })
  .refine((b) => b.includeSpaces || b.spaceRecordSimplyId, { message: 'is required unless includeSpaces is true', path: ['spaceRecordSimplyId'] });
export const quoteBody = z.strictObject({ ...range, spaceRecordSimplyIds: spaceIds.min(1, 'name at least one space'), packageRecordSimplyId: recordId.optional(), ...publicToken });
const bookingFields = { title: name, notes: z.string().max(10_000).optional(), requesterRecordSimplyId: recordId.optional(), expectedAmountMinorUnits: minor.optional() };
export const runBody = quoteBody.extend(bookingFields);

export const connectionAvailabilityBody = availabilityBody.omit({ publicAccessToken: true }).extend(channelRef);
export const connectionQuoteBody = quoteBody.omit({ publicAccessToken: true }).extend(channelRef);
export const connectionRunBody = runBody.omit({ publicAccessToken: true }).extend(channelRef);

export const PATCH_ACTIONS = ['EDIT', 'CANCEL', 'APPROVE', 'DENY'] as const;
export const patchBookingBody = z.strictObject({
  action: z.enum(PATCH_ACTIONS),
  bookingChannelSimplyId: z.string().max(40),
  startsAt: instant.optional(),
  endsAt: instant.optional(),
  spaceRecordSimplyIds: spaceIds.min(1).optional(),
  title: name.optional(),
  notes: z.string().max(10_000).nullable().optional(),
  requesterRecordSimplyId: recordId.nullable().optional(),
});

export const webhookSubscriptionBody = z.strictObject({ targetUrl: z.string().url().max(2000) });

/** The body checked against its schema; every problem is a detail naming its field. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const result = schema.safeParse(body ?? {});
  if (result.success) return result.data;
  const details = result.error.issues.map((issue) => ({ field: issue.path.join('.') || 'body', message: issue.message }));
  throw new BookingRequestInvalidError(`The request body is invalid: ${details.map((d) => `${d.field} ${d.message}`).join('; ')}`, details);
}

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return zone.includes('/') || zone === 'UTC';
  } catch {
    return false;
  }
}
