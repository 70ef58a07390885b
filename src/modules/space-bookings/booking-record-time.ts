// The time a booking record holds, read from its mapped fields whichever face wrote it: its spaces
// from its start to its end, unless its status freed them (docs/api/space-bookings.md "Booking
// status") or it is a draft without a start, an end or a space.
import { decodeValue, type FieldDefinition } from '../../kernel/index.ts';
import type { Mapping } from './space-bookings.input.ts';

export type BookingFields = Mapping['bookings'];

/** statuses whose booking holds no time */
const FREED = new Set(['DENIED', 'CANCELLED']);

export interface RecordTime {
  spaces: string[];
  startsAt: number;
  endsAt: number;
}

/** The record's time, null when it holds none, or 'INVERTED' when it ends at or before its start. */
export function recordTime(fields: readonly FieldDefinition[], stored: Record<string, unknown>, m: BookingFields): RecordTime | null | 'INVERTED' {
  const value = (id: string) => {
    const field = fields.find((f) => f.dataFieldSimplyId === id);
    return field ? decodeValue(field, stored[id]) : null;
  };
  if (FREED.has(String(value(m.statusFieldSimplyId) ?? ''))) return null;
  const starts = value(m.startsAtFieldSimplyId);
  const ends = value(m.endsAtFieldSimplyId);
  const spacesValue = value(m.spacesFieldSimplyId);
  const spaces = Array.isArray(spacesValue) ? spacesValue.map(String) : spacesValue ? [String(spacesValue)] : [];
  if (typeof starts !== 'string' || typeof ends !== 'string' || spaces.length === 0) return null;
  const time = { spaces: [...new Set(spaces)], startsAt: Date.parse(starts), endsAt: Date.parse(ends) };
  return time.endsAt > time.startsAt ? time : 'INVERTED';
}

/** the fields whose change moves or frees a booking's time */
export const timeFieldIds = (m: BookingFields): string[] => [m.startsAtFieldSimplyId, m.endsAtFieldSimplyId, m.spacesFieldSimplyId, m.statusFieldSimplyId];
