// Availability, slots, the slot grid and quotes of one channel: each asks the rule engine
// (booking-rules.ts) with the claims of the spaces concerned, so every route answers by the same
// rules a run is held to. Callers decide whether conflicts may be shown (not on public links).
import { Temporal } from 'temporal-polyfill';
import type { Services } from '../../app/context.ts';
import type { TeamSchema } from '../../kernel/index.ts';
import { busySpans } from './booking-claims.sql.ts';
import { bookable, checkBooking, defaultDuration, type Diagnostic, slotGrid, WindowCalendar } from './booking-rules.ts';
import { priceBooking } from './pricing.ts';
import type { Mapping } from './space-bookings.input.ts';
import { BookingRequestInvalidError } from './space-bookings.errors.ts';
import type { Channel } from './space-bookings.store.ts';
import { readSpaces, type Space } from './spaces.reader.ts';

const MINUTE = 60_000;
/** the widest range /slots answers at once */
export const MAX_SLOT_RANGE_DAYS = 31;
/** the most days one slot grid covers */
export const MAX_GRID_DAYS = 62;

export interface Scope {
  services: Services;
  schema: TeamSchema;
  mapping: Mapping;
  channel: Channel;
  bookingLinkSimplyId: string | null;
  /** source-connection callers see which bookings are in the way; public links never do */
  showConflicts: boolean;
}

const iso = (ms: number) => new Date(ms).toISOString();
const instant = (value: string) => Date.parse(value);

/** each channel's calendar as last provisioned, kept between requests (its windows per date are worked out once) */
const calendars = new Map<string, WindowCalendar>();
const CALENDARS_KEPT = 500;

export function calendarOf(channel: Channel): WindowCalendar {
  const key = `${channel.id}:${channel.updatedAt.getTime()}`;
  let calendar = calendars.get(key);
  if (!calendar) {
    if (calendars.size >= CALENDARS_KEPT) calendars.delete(calendars.keys().next().value!);
    calendar = new WindowCalendar(channel.settings.availabilityPolicy);
    calendars.set(key, calendar);
  }
  return calendar;
}

/** how far around a time claims matter: the buffers of both bookings */
const padOf = (channel: Channel) => (channel.settings.availabilityPolicy.bufferBeforeMinutes + channel.settings.availabilityPolicy.bufferAfterMinutes) * MINUTE;

function asked(channel: Channel, ids: readonly string[] | undefined): string[] {
  return ids && ids.length > 0 ? [...new Set(ids)] : channel.settings.spaceRecordSimplyIds;
}

async function spacesById(scope: Scope, ids: readonly string[]): Promise<Map<string, Space>> {
  const inScope = ids.filter((id) => scope.channel.settings.spaceRecordSimplyIds.includes(id));
  return new Map((await readSpaces(scope.services, scope.schema, scope.mapping, inScope)).map((s) => [s.spaceRecordSimplyId, s]));
}

export async function availability(scope: Scope, body: { startsAt: string; endsAt: string; spaceRecordSimplyIds?: string[] }, now = Date.now()) {
  const ids = asked(scope.channel, body.spaceRecordSimplyIds);
  const ask = { startsAt: instant(body.startsAt), endsAt: instant(body.endsAt), spaceRecordSimplyIds: ids, now };
  const pad = padOf(scope.channel);
  const [busy, spaces] = await Promise.all([busySpans(scope.services.pool, scope.channel.teamId, ids, ask.startsAt - pad, ask.endsAt + pad), spacesById(scope, ids)]);
  const verdict = checkBooking(calendarOf(scope.channel), scope.channel.settings, ask, busy);
  return {
    bookingChannelSimplyId: scope.channel.simplyId,
    bookingLinkSimplyId: scope.bookingLinkSimplyId,
    startsAt: iso(ask.startsAt),
    endsAt: iso(ask.endsAt),
    spaces: verdict.spaces.flatMap((v) => {
      const space = spaces.get(v.spaceRecordSimplyId);
      if (!space) return [];
      return [{ ...space, isAvailable: v.isAvailable && bookableTime(verdict.diagnostics), conflicts: scope.showConflicts ? v.conflicts.map((c) => ({ startsAt: iso(c.startsAt), endsAt: iso(c.endsAt), bookingRecordSimplyId: c.bookingRecordSimplyId })) : [] }];
    }),
    diagnostics: publicDiagnostics(verdict.diagnostics, scope.showConflicts),
    generatedAt: new Date(now).toISOString(),
  };
}

/** whether the time itself may be booked (a space's own unavailability aside) */
function bookableTime(diagnostics: Diagnostic[]): boolean {
  return !diagnostics.some((d) => d.code !== 'BOOKING_SPACE_UNAVAILABLE' && d.code !== 'BOOKING_SPACE_OUT_OF_SCOPE' || d.path?.startsWith('closures'));
}

/** publicly, a taken space says so without naming what takes it */
function publicDiagnostics(diagnostics: Diagnostic[], showConflicts: boolean): Diagnostic[] {
  if (showConflicts) return diagnostics;
  return diagnostics.map((d) => (d.code === 'BOOKING_SPACE_UNAVAILABLE' && d.path?.startsWith('spaceRecordSimplyIds') ? { ...d, message: 'This space is not available at that time' } : d));
}

export async function slots(scope: Scope, body: { startsAt: string; endsAt: string; durationMinutes?: number; spaceRecordSimplyIds?: string[] }, now = Date.now()) {
  const from = instant(body.startsAt);
  const to = instant(body.endsAt);
  if (!(to > from)) throw new BookingRequestInvalidError('endsAt must be after startsAt', [{ field: 'endsAt', message: 'must be after startsAt' }]);
  if (to - from > MAX_SLOT_RANGE_DAYS * 24 * 60 * MINUTE) throw new BookingRequestInvalidError(`A slot search covers at most ${MAX_SLOT_RANGE_DAYS} days`, [{ field: 'endsAt', message: `at most ${MAX_SLOT_RANGE_DAYS} days after startsAt` }]);
  const policy = scope.channel.settings.availabilityPolicy;
  const duration = body.durationMinutes ?? defaultDuration(policy);
  const ids = asked(scope.channel, body.spaceRecordSimplyIds);
  const calendar = calendarOf(scope.channel);
  const inScope = ids.filter((id) => scope.channel.settings.spaceRecordSimplyIds.includes(id));
  const pad = padOf(scope.channel);
  const busy = await busySpans(scope.services.pool, scope.channel.teamId, inScope, from - pad, to + pad);
  const byStart = new Map<number, { startsAt: number; endsAt: number; spaceRecordSimplyIds: string[] }>();
  for (const space of inScope) {
    // every candidate of the local days the range touches, each rechecked by the rules, then cut to the range
    for (const day of slotGrid(calendar, scope.channel.settings, space, calendar.localDate(from), calendar.localDate(to), duration, now, busy)) {
      for (const slot of day.slots) {
        if (slot.startsAt < from || slot.endsAt > to) continue;
        const entry = byStart.get(slot.startsAt) ?? { ...slot, spaceRecordSimplyIds: [] };
        entry.spaceRecordSimplyIds.push(space);
        byStart.set(slot.startsAt, entry);
      }
    }
  }
  const diagnostics: Diagnostic[] = ids.flatMap((id, i) => (inScope.includes(id) ? [] : [{ code: 'BOOKING_SPACE_OUT_OF_SCOPE' as const, message: `Space ${id} is not bookable through this channel`, path: `spaceRecordSimplyIds[${i}]` }]));
  return {
    bookingChannelSimplyId: scope.channel.simplyId,
    bookingLinkSimplyId: scope.bookingLinkSimplyId,
    durationMinutes: duration,
    slots: [...byStart.values()].sort((a, b) => a.startsAt - b.startsAt).map((s) => ({ startsAt: iso(s.startsAt), endsAt: iso(s.endsAt), spaceRecordSimplyIds: s.spaceRecordSimplyIds })),
    diagnostics,
    generatedAt: new Date(now).toISOString(),
  };
}

export async function grid(scope: Scope, body: { spaceRecordSimplyId?: string; fromDate: string; toDate: string; durationMinutes?: number; includeSpaces: boolean }, now = Date.now()) {
  const policy = scope.channel.settings.availabilityPolicy;
  const from = Temporal.PlainDate.from(body.fromDate);
  const to = Temporal.PlainDate.from(body.toDate);
  if (from.until(to).days + 1 > MAX_GRID_DAYS) throw new BookingRequestInvalidError(`A slot grid covers at most ${MAX_GRID_DAYS} days`, [{ field: 'toDate', message: `at most ${MAX_GRID_DAYS - 1} days after fromDate` }]);
  const duration = body.durationMinutes ?? defaultDuration(policy);
  const calendar = calendarOf(scope.channel);
  const spaceIds = body.spaceRecordSimplyId ? [body.spaceRecordSimplyId] : scope.channel.settings.spaceRecordSimplyIds;
  const diagnostics: Diagnostic[] = [];
  if (body.spaceRecordSimplyId && !scope.channel.settings.spaceRecordSimplyIds.includes(body.spaceRecordSimplyId)) {
    diagnostics.push({ code: 'BOOKING_SPACE_OUT_OF_SCOPE', message: `Space ${body.spaceRecordSimplyId} is not bookable through this channel`, path: 'spaceRecordSimplyId' });
  }
  const start = from.toZonedDateTime({ timeZone: policy.timeZone }).epochMilliseconds;
  const end = to.add({ days: 1 }).toZonedDateTime({ timeZone: policy.timeZone }).epochMilliseconds;
  const pad = padOf(scope.channel);
  const inScope = diagnostics.length > 0 ? [] : spaceIds;
  const busy = await busySpans(scope.services.pool, scope.channel.teamId, inScope, start - pad, end + pad);
  const perSpace = inScope.map((space) => ({ space, days: slotGrid(calendar, scope.channel.settings, space, from, to, duration, now, busy) }));
  // one space: its days; several (includeSpaces): a slot is listed when any space has it, with the spaces that do
  const days = perSpace.length === 0 ? datesOf(from, to).map((date) => ({ date, slots: [] })) : mergeDays(perSpace, body.includeSpaces);
  const spaces = body.includeSpaces ? [...(await spacesById(scope, spaceIds)).values()] : undefined;
  return {
    bookingChannelSimplyId: scope.channel.simplyId,
    spaceRecordSimplyId: body.spaceRecordSimplyId ?? null,
    timezone: policy.timeZone,
    fromDate: body.fromDate,
    toDate: body.toDate,
    durationMinutes: duration,
    slotIncrementMinutes: policy.slotIncrementMinutes,
    defaultDurationMinutes: defaultDuration(policy),
    days,
    ...(spaces ? { spaces } : {}),
    minimumDurationMinutes: policy.minimumDurationMinutes,
    maximumDurationMinutes: policy.maximumDurationMinutes,
    maximumAdvanceDays: policy.maximumAdvanceDays,
    pricingMode: scope.channel.settings.pricing.mode,
    diagnostics,
    generatedAt: new Date(now).toISOString(),
  };
}

function datesOf(from: Temporal.PlainDate, to: Temporal.PlainDate): string[] {
  const out: string[] = [];
  for (let d = from; Temporal.PlainDate.compare(d, to) <= 0; d = d.add({ days: 1 })) out.push(d.toString());
  return out;
}

function mergeDays(perSpace: { space: string; days: { date: string; slots: { startsAt: number; endsAt: number }[] }[] }[], withSpaces: boolean) {
  return perSpace[0]!.days.map((day, i) => {
    const byStart = new Map<number, { startsAt: number; endsAt: number; spaces: string[] }>();
    for (const { space, days } of perSpace) {
      for (const slot of days[i]!.slots) {
        const entry = byStart.get(slot.startsAt) ?? { ...slot, spaces: [] };
        entry.spaces.push(space);
        byStart.set(slot.startsAt, entry);
      }
    }
    return {
      date: day.date,
      slots: [...byStart.values()].sort((a, b) => a.startsAt - b.startsAt).map((s) => ({ startsAt: iso(s.startsAt), endsAt: iso(s.endsAt), ...(withSpaces ? { spaceRecordSimplyIds: s.spaces } : {}) })),
    };
  });
}

export interface QuoteAsk {
  startsAt: string;
  endsAt: string;
  spaceRecordSimplyIds: string[];
  packageRecordSimplyId?: string;
}

/** Every rule's verdict for one booking, without the price (a run's first check: a taken space is refused before anything else is read). */
export async function verdictOf(scope: Scope, body: QuoteAsk, now = Date.now(), ignoreBooking?: string) {
  const ids = [...new Set(body.spaceRecordSimplyIds)];
  const ask = { startsAt: instant(body.startsAt), endsAt: instant(body.endsAt), spaceRecordSimplyIds: ids, now };
  const pad = padOf(scope.channel);
  const busy = await busySpans(scope.services.pool, scope.channel.teamId, ids, ask.startsAt - pad, ask.endsAt + pad);
  return checkBooking(calendarOf(scope.channel), scope.channel.settings, ask, busy, ignoreBooking);
}

/** The price and every rule's verdict for one booking. */
export async function quote(scope: Scope, body: QuoteAsk, now = Date.now(), ignoreBooking?: string) {
  const ids = [...new Set(body.spaceRecordSimplyIds)];
  const ask = { startsAt: instant(body.startsAt), endsAt: instant(body.endsAt), spaceRecordSimplyIds: ids, now };
  const pad = padOf(scope.channel);
  const [busy, spaces] = await Promise.all([busySpans(scope.services.pool, scope.channel.teamId, ids, ask.startsAt - pad, ask.endsAt + pad), spacesById(scope, ids)]);
  const verdict = checkBooking(calendarOf(scope.channel), scope.channel.settings, ask, busy, ignoreBooking);
  const policy = scope.channel.settings.availabilityPolicy;
  const durationMinutes = Math.max(0, Math.round((ask.endsAt - ask.startsAt) / MINUTE));
  const price = priceBooking({
    pricing: scope.channel.settings.pricing,
    slotIncrementMinutes: policy.slotIncrementMinutes,
    durationMinutes,
    spaces: ids.map((id) => ({ spaceRecordSimplyId: id, displayName: spaces.get(id)?.displayName ?? id })),
    packageRecordSimplyId: body.packageRecordSimplyId,
  });
  return {
    quote: {
      currencyCode: scope.channel.settings.pricing.currencyCode,
      amountMinorUnits: price.amountMinorUnits,
      lineItems: price.lineItems,
      startsAt: iso(ask.startsAt),
      endsAt: iso(ask.endsAt),
      bookingChannelSimplyId: scope.channel.simplyId,
      diagnostics: publicDiagnostics(verdict.diagnostics, scope.showConflicts),
      generatedAt: new Date(now).toISOString(),
    },
    bookable: bookable(verdict),
    verdict,
    ask,
  };
}
