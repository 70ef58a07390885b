// Writing bookings: a run creates the booking record, and PATCH edits, cancels, approves or denies
// one. The last availability check and the claim of the booking's time happen inside the record
// write's own transaction, under the channel's advisory lock, so of two overlapping requests one
// wins and the other is told BOOKING_SLOT_CONTENTION; the claims table's exclusion constraint
// stands behind the lock. The amount a run stores is the quote it answers.
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { hasScope } from '../../app/auth/principal.ts';
import type { RequestContext } from '../../app/context.ts';
import { NotFoundError } from '../../app/errors.ts';
import { accessTo, createRecords, decodeRecordFields, findRecords, updateRecordsById } from '../../kernel/index.ts';
import { busySpans, claimsOf, insertClaims, lockChannel, releaseClaims } from './booking-claims.sql.ts';
import { type BusySpan, checkBooking, type Diagnostic } from './booking-rules.ts';
import { BOOKING_ROUTES_SOURCE } from './booking-time-guard.ts';
import type { WriteTurn } from './channel-write-queue.ts';
import { calendarOf, quote, type QuoteAsk, type Scope, verdictOf } from './booking-evaluation.ts';
import { bookingFieldIds } from './mapping.ts';
import type { BookingStatus } from './space-bookings.input.ts';
import { canManageSpaces } from './space-bookings.access.ts';
import { BookingRefusedError, BookingRequestInvalidError, BookingUnauthorizedError } from './space-bookings.errors.ts';

const MINUTE = 60_000;

export interface RunAsk extends QuoteAsk {
  title: string;
  notes?: string;
  requesterRecordSimplyId?: string;
  expectedAmountMinorUnits?: number;
}

/** The caller creates the booking record itself: it must create records of the collection and write every mapped field. */
export async function requireBookingWriter(ctx: RequestContext, scope: Scope): Promise<void> {
  const collection = scope.schema.collectionsBySimplyId.get(scope.mapping.bookings.dataCollectionSimplyId);
  if (!collection) throw new BookingUnauthorizedError('The mapped booking collection no longer exists');
  const access = accessTo(ctx.principal, scope.schema, collection);
  const missing = bookingFieldIds(scope.mapping).filter((id) => !access.editable.has(id));
  if (!hasScope(ctx.principal, 'records:write') || !access.canEdit || missing.length > 0) {
    throw new BookingUnauthorizedError(
      `Creating bookings needs permission to create records in collection ${collection.simplyId} and to write each mapped booking field${missing.length ? ` (not: ${missing.join(', ')})` : ''}`,
    );
  }
}

type Ask = { startsAt: number; endsAt: number; spaceRecordSimplyIds: string[] };

/** Refuses the ask when `busy` (claims of its spaces around its time) is in its way: a conflict found this late is contention. */
function refuseIfBusy(scope: Scope, ask: Ask, busy: readonly BusySpan[]): void {
  const verdict = checkBooking(calendarOf(scope.channel), scope.channel.settings, { ...ask, now: Date.now() }, busy);
  if (verdict.diagnostics.length > 0) throw new BookingRefusedError(contention(verdict.diagnostics));
}

const bufferPad = (scope: Scope) => (scope.channel.settings.availabilityPolicy.bufferBeforeMinutes + scope.channel.settings.availabilityPolicy.bufferAfterMinutes) * MINUTE;

/**
 * A new booking that waited its turn behind others of the channel (channel-write-queue.ts): the
 * claims they found, then the claims as committed now, before anything is written.
 */
async function refuseIfTakenMeanwhile(scope: Scope, ask: Ask, turn: WriteTurn): Promise<void> {
  if (turn.seen.length > 0) refuseIfBusy(scope, ask, turn.seen);
  const pad = bufferPad(scope);
  const busy = await busySpans(scope.services.pool, scope.channel.teamId, ask.spaceRecordSimplyIds, ask.startsAt - pad, ask.endsAt + pad);
  turn.remember(busy);
  refuseIfBusy(scope, ask, busy);
}

/** Under the channel's lock: the claims as they are now, the rules once more, then the claim. */
async function claimUnderLock(db: pg.PoolClient, scope: Scope, ask: Ask, claimKey: string, bookingRecordSimplyId: string | null, kind: 'NEW' | 'EDIT', turn: WriteTurn): Promise<void> {
  const channel = scope.channel;
  await lockChannel(db, channel.id);
  if (kind === 'EDIT' && bookingRecordSimplyId) await releaseClaims(db, channel.teamId, bookingRecordSimplyId);
  const pad = bufferPad(scope);
  const busy = await busySpans(db, channel.teamId, ask.spaceRecordSimplyIds, ask.startsAt - pad, ask.endsAt + pad);
  turn.remember(busy.filter((b) => b.bookingRecordSimplyId !== bookingRecordSimplyId));
  refuseIfBusy(scope, ask, busy);
  const claimed = await insertClaims(db, { teamId: channel.teamId, channelId: channel.id, claimKey, bookingRecordSimplyId, spaces: ask.spaceRecordSimplyIds, startsAt: ask.startsAt, endsAt: ask.endsAt });
  if (!claimed) throw new BookingRefusedError([{ code: 'BOOKING_SLOT_CONTENTION', message: 'Another booking claimed this time just now: check availability again', path: 'startsAt' }]);
}

/** A space found taken only under the lock was taken by a booking that won the race. */
function contention(diagnostics: Diagnostic[]): Diagnostic[] {
  return diagnostics.map((d) =>
    d.code === 'BOOKING_SPACE_UNAVAILABLE' && d.path?.startsWith('spaceRecordSimplyIds') ? { ...d, code: 'BOOKING_SLOT_CONTENTION', message: 'Another booking claimed this time just now: check availability again' } : d,
  );
}

/**
 * Creates the booking. `writer` is the context whose permissions write the record (the caller on
 * source-connection routes; the link's own principal for the hosted flow).
 */
export async function runBooking(writer: RequestContext, scope: Scope, body: RunAsk, initialStatus: BookingStatus) {
  const first = await verdictOf(scope, body);
  if (first.diagnostics.length > 0) throw new BookingRefusedError(first.diagnostics);
  const priced = await quote(scope, body);
  if (!priced.bookable) throw new BookingRefusedError(priced.verdict.diagnostics);
  if (body.expectedAmountMinorUnits !== undefined && body.expectedAmountMinorUnits !== priced.quote.amountMinorUnits) {
    throw new BookingRequestInvalidError('The price changed since the quote: quote again', [{ field: 'expectedAmountMinorUnits', message: `the quote is now ${priced.quote.amountMinorUnits}` }]);
  }
  const m = scope.mapping.bookings;
  const spaces = priced.ask.spaceRecordSimplyIds;
  const fields: Record<string, unknown> = {
    [m.startsAtFieldSimplyId]: priced.quote.startsAt,
    [m.endsAtFieldSimplyId]: priced.quote.endsAt,
    [m.spacesFieldSimplyId]: spacesValue(scope, spaces),
    [m.titleFieldSimplyId]: body.title,
    [m.statusFieldSimplyId]: initialStatus,
  };
  if (m.notesFieldSimplyId && body.notes !== undefined) fields[m.notesFieldSimplyId] = body.notes;
  if (m.requesterFieldSimplyId && body.requesterRecordSimplyId) fields[m.requesterFieldSimplyId] = body.requesterRecordSimplyId;
  if (m.amountFieldSimplyId) fields[m.amountFieldSimplyId] = priced.quote.amountMinorUnits;
  const claimKey = randomUUID();
  const ask = { startsAt: priced.ask.startsAt, endsAt: priced.ask.endsAt, spaceRecordSimplyIds: spaces };
  const outcome = await scope.services.spaceWriteQueue.inTurn(scope.channel.id, async (turn) => {
    if (turn.waited) await refuseIfTakenMeanwhile(scope, ask, turn);
    return createRecords(writer, m.dataCollectionSimplyId, [fields], {
      batch: false,
      source: BOOKING_ROUTES_SOURCE,
      // the claim names its booking record in the record's own transaction: no claim outlives a crash unnamed
      alsoInTransaction: (db, _failures, created) => claimUnderLock(db, scope, ask, claimKey, created?.[0] ?? null, 'NEW', turn),
    });
  });
  const record = outcome.records[0]!;
  return { bookingRecordSimplyId: record.dataRecordSimplyId, status: initialStatus, quote: priced.quote, diagnostics: [] as Diagnostic[] };
}

function spacesValue(scope: Scope, spaces: string[]): unknown {
  const field = scope.schema.fieldsBySimplyId.get(scope.mapping.bookings.spacesFieldSimplyId);
  return field?.dataType === 'SINGLE_DATA_RECORD' ? spaces[0] : spaces;
}

export interface PatchAsk {
  action: 'EDIT' | 'CANCEL' | 'APPROVE' | 'DENY';
  startsAt?: string;
  endsAt?: string;
  spaceRecordSimplyIds?: string[];
  title?: string;
  notes?: string | null;
  requesterRecordSimplyId?: string | null;
}

/** What each action moves a booking from and to (docs/api/space-bookings.md "Booking status"). */
const MOVES: Record<Exclude<PatchAsk['action'], 'EDIT'>, { from: BookingStatus[]; to: BookingStatus }> = {
  APPROVE: { from: ['PENDING_APPROVAL'], to: 'CONFIRMED' },
  DENY: { from: ['PENDING_APPROVAL'], to: 'DENIED' },
  CANCEL: { from: ['PENDING_APPROVAL', 'CONFIRMED'], to: 'CANCELLED' },
};
const EDITABLE: BookingStatus[] = ['PENDING_APPROVAL', 'CONFIRMED'];

export async function patchBooking(ctx: RequestContext, scope: Scope, bookingRecordSimplyId: string, body: PatchAsk) {
  const m = scope.mapping.bookings;
  const collection = scope.schema.collectionsBySimplyId.get(m.dataCollectionSimplyId);
  const row = (await findRecords(scope.services.pool, scope.channel.teamId, [bookingRecordSimplyId]))[0];
  if (!collection || !row || row.collectionId !== collection.id) throw new NotFoundError('Booking record', bookingRecordSimplyId);
  const current = decodeRecordFields(scope.schema.fieldsOf(collection), row.values);
  const status = String(current[m.statusFieldSimplyId] ?? '') as BookingStatus;
  // the move is decided on this version: a booking changed meanwhile is a 409, never a second move
  const asRead = new Map([[bookingRecordSimplyId, row.updatedAt]]);
  const changes = (['startsAt', 'endsAt', 'spaceRecordSimplyIds', 'title', 'notes', 'requesterRecordSimplyId'] as const).filter((k) => body[k] !== undefined);
  const claims = await claimsOf(scope.services.pool, scope.channel.teamId, bookingRecordSimplyId);
  if (claims.length > 0 && claims[0] && !scope.channel.settings.spaceRecordSimplyIds.includes(claims[0].spaceRecordSimplyId)) {
    throw new NotFoundError('Booking record', bookingRecordSimplyId);
  }
  if (body.action !== 'EDIT') {
    if (changes.length > 0) throw new BookingRequestInvalidError(`${body.action} takes no field changes`, changes.map((field) => ({ field, message: `not allowed with ${body.action}` })));
    const move = MOVES[body.action];
    if (!move.from.includes(status)) throw new BookingRequestInvalidError(`A booking with status ${status || 'none'} cannot be ${body.action}`, [{ field: 'action', message: `needs status ${move.from.join(' or ')}` }]);
    const releases = move.to === 'CANCELLED' || move.to === 'DENIED';
    await updateRecordsById(ctx, [{ dataRecordSimplyId: bookingRecordSimplyId, fields: { [m.statusFieldSimplyId]: move.to } }], {
      batch: false,
      source: BOOKING_ROUTES_SOURCE,
      expectUpdatedAt: asRead,
      alsoInTransaction: releases ? async (db) => void (await releaseClaims(db, scope.channel.teamId, bookingRecordSimplyId)) : undefined,
    });
    return { bookingRecordSimplyId, status: move.to, updatedFieldSimplyIds: [m.statusFieldSimplyId], quote: null };
  }
  if (changes.length === 0) throw new BookingRequestInvalidError('EDIT must change at least one field', [{ field: 'action', message: 'EDIT changes startsAt and endsAt, spaceRecordSimplyIds, title, notes or requesterRecordSimplyId' }]);
  if ((body.startsAt === undefined) !== (body.endsAt === undefined)) {
    throw new BookingRequestInvalidError('startsAt and endsAt change together', [{ field: body.startsAt === undefined ? 'startsAt' : 'endsAt', message: 'is required with the other' }]);
  }
  if (!EDITABLE.includes(status)) throw new BookingRequestInvalidError(`A booking with status ${status || 'none'} cannot be edited`, [{ field: 'action', message: 'needs status PENDING_APPROVAL or CONFIRMED' }]);
  if (body.requesterRecordSimplyId !== undefined && !canManageSpaces(ctx)) {
    throw new BookingUnauthorizedError('Changing the requester needs SVC_SPACES_MANAGE');
  }
  if (body.notes !== undefined && !m.notesFieldSimplyId) throw new BookingRequestInvalidError('The mapping has no notes field', [{ field: 'notes', message: 'not mapped' }]);
  if (body.requesterRecordSimplyId !== undefined && !m.requesterFieldSimplyId) throw new BookingRequestInvalidError('The mapping has no requester field', [{ field: 'requesterRecordSimplyId', message: 'not mapped' }]);
  const fields: Record<string, unknown> = {};
  if (body.title !== undefined) fields[m.titleFieldSimplyId] = body.title;
  if (body.notes !== undefined) fields[m.notesFieldSimplyId!] = body.notes;
  if (body.requesterRecordSimplyId !== undefined) fields[m.requesterFieldSimplyId!] = body.requesterRecordSimplyId;
  const reschedules = body.startsAt !== undefined || body.spaceRecordSimplyIds !== undefined;
  let newQuote = null;
  if (reschedules) {
    const startsAt = body.startsAt ?? String(current[m.startsAtFieldSimplyId]);
    const endsAt = body.endsAt ?? String(current[m.endsAtFieldSimplyId]);
    const spaces = body.spaceRecordSimplyIds ?? [...new Set(claims.map((c) => c.spaceRecordSimplyId))];
    const priced = await quote(scope, { startsAt, endsAt, spaceRecordSimplyIds: spaces }, Date.now(), bookingRecordSimplyId);
    if (!priced.bookable) throw new BookingRefusedError(priced.verdict.diagnostics);
    newQuote = priced.quote;
    fields[m.startsAtFieldSimplyId] = priced.quote.startsAt;
    fields[m.endsAtFieldSimplyId] = priced.quote.endsAt;
    fields[m.spacesFieldSimplyId] = spacesValue(scope, priced.ask.spaceRecordSimplyIds);
    if (m.amountFieldSimplyId) fields[m.amountFieldSimplyId] = priced.quote.amountMinorUnits;
    const ask = { startsAt: priced.ask.startsAt, endsAt: priced.ask.endsAt, spaceRecordSimplyIds: priced.ask.spaceRecordSimplyIds };
    await scope.services.spaceWriteQueue.inTurn(scope.channel.id, (turn) =>
      updateRecordsById(ctx, [{ dataRecordSimplyId: bookingRecordSimplyId, fields }], {
        batch: false,
        source: BOOKING_ROUTES_SOURCE,
        alsoInTransaction: (db) => claimUnderLock(db, scope, ask, randomUUID(), bookingRecordSimplyId, 'EDIT', turn),
        expectUpdatedAt: asRead,
      }),
    );
  } else {
    await updateRecordsById(ctx, [{ dataRecordSimplyId: bookingRecordSimplyId, fields }], { batch: false, source: BOOKING_ROUTES_SOURCE, expectUpdatedAt: asRead });
  }
  return { bookingRecordSimplyId, status, updatedFieldSimplyIds: Object.keys(fields), quote: newQuote };
}
