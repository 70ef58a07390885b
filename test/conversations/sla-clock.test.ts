// Business-time arithmetic of SLA clocks (sla-clock.ts): opening hours in the policy's time zone,
// right across Europe/Berlin's daylight-saving changes (last Sundays of March and October) and
// around holidays.
import { describe, expect, it } from 'vitest';
import { addBusinessMinutes, type BusinessCalendar } from '../../src/modules/conversations/sla-clock.ts';

const BERLIN = 'Europe/Berlin';
const weekdays = (start: string, end: string) => [1, 2, 3, 4, 5].map((weekday) => ({ weekday, start, end }));
const calendar = (c: Partial<BusinessCalendar>): BusinessCalendar => ({ timeZone: BERLIN, hours: [], holidays: new Set(), ...c });
const at = (iso: string) => new Date(iso);

describe('business minutes', () => {
  it('around the clock counts real time across the spring change (23-hour Sunday)', () => {
    // Sat 28 March 2026 12:00 CET + 24 h: Sun 29 March 13:00 wall clock would be wrong; 14:00 CEST is right
    expect(addBusinessMinutes(calendar({}), at('2026-03-28T11:00:00Z'), 24 * 60)?.toISOString()).toBe('2026-03-29T11:00:00.000Z');
  });

  it('opening hours carry over the weekend of the spring change into Monday’s summer time', () => {
    // Fri 27 March 16:00 CET (15:00Z), 120 business minutes: 60 on Friday, 60 on Monday from 09:00 CEST (07:00Z)
    const due = addBusinessMinutes(calendar({ hours: weekdays('09:00', '17:00') }), at('2026-03-27T15:00:00Z'), 120);
    expect(due?.toISOString()).toBe('2026-03-30T08:00:00.000Z');
  });

  it('a holiday is closed all day', () => {
    const due = addBusinessMinutes(calendar({ hours: weekdays('09:00', '17:00'), holidays: new Set(['2026-03-30']) }), at('2026-03-27T15:00:00Z'), 120);
    expect(due?.toISOString()).toBe('2026-03-31T08:00:00.000Z');
  });

  it('the autumn change: a 25-hour Sunday open all day holds 25 hours', () => {
    const sundays = calendar({ hours: [{ weekday: 7, start: '00:00', end: '24:00' }] });
    // Sun 25 October 2026 00:00 CEST = 24 Oct 22:00Z; 25 h later is Mon 00:00 CET = 25 Oct 23:00Z
    expect(addBusinessMinutes(sundays, at('2026-10-24T22:00:00Z'), 25 * 60)?.toISOString()).toBe('2026-10-25T23:00:00.000Z');
    // and 9:00-17:00 on the Monday after is 08:00Z-16:00Z (winter time)
    expect(addBusinessMinutes(calendar({ hours: weekdays('09:00', '17:00') }), at('2026-10-24T12:00:00Z'), 30)?.toISOString()).toBe('2026-10-26T08:30:00.000Z');
  });

  it('starts counting at the next opening, skips breaks, and gives up on a calendar that never opens', () => {
    const split = calendar({ hours: [{ weekday: 1, start: '09:00', end: '12:00' }, { weekday: 1, start: '13:00', end: '17:00' }] });
    // Mon 30 March 2026 (CEST): 07:00Z is 09:00; 200 minutes: 180 before lunch, 20 after 13:00 → 13:20 CEST = 11:20Z
    expect(addBusinessMinutes(split, at('2026-03-30T05:00:00Z'), 200)?.toISOString()).toBe('2026-03-30T11:20:00.000Z');
    expect(addBusinessMinutes(calendar({ hours: [{ weekday: 1, start: '09:00', end: '10:00' }], holidays: new Set() }), at('2026-03-30T07:00:00Z'), 60)?.toISOString()).toBe('2026-03-30T08:00:00.000Z');
    // closed every day for more than three years: no due time
    const closedDays = new Set(Array.from({ length: 1200 }, (_, i) => new Date(Date.UTC(2026, 0, 1 + i)).toISOString().slice(0, 10)));
    expect(addBusinessMinutes(calendar({ timeZone: 'UTC', holidays: closedDays }), at('2026-01-01T00:00:00Z'), 60)).toBeNull();
  });
});
