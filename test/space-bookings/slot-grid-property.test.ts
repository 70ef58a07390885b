// The slot grid against a brute-force reference over daylight-saving changes: the reference walks
// every minute of the days, reads its wall-clock time with Intl (not Temporal), finds each weekly
// window's first and last instants by that alone, and keeps every aligned start whose booking fits
// its window and touches no booking (buffers included). No server: the rule engine is pure.
import fc from 'fast-check';
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { type BusySpan, checkBooking, slotGrid, WindowCalendar } from '../../src/modules/space-bookings/booking-rules.ts';
import { type AvailabilityPolicy, WEEKDAYS } from '../../src/modules/space-bookings/space-bookings.input.ts';

const MINUTE = 60_000;

/** zones with a change on (or near) these dates: 1-hour, 30-minute and midnight changes, and none */
const CASES: { zone: string; dates: string[] }[] = [
  { zone: 'Europe/Berlin', dates: ['2026-03-29', '2026-10-25'] },
  { zone: 'America/New_York', dates: ['2026-03-08', '2026-11-01'] },
  { zone: 'Australia/Lord_Howe', dates: ['2026-04-05', '2026-10-04'] },
  { zone: 'America/Santiago', dates: ['2026-04-05', '2026-09-06'] },
  { zone: 'America/St_Johns', dates: ['2026-03-08', '2026-11-01'] },
  { zone: 'Asia/Kolkata', dates: ['2026-03-29'] },
];

function localReader(zone: string) {
  const format = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  return (ms: number) => {
    const parts = Object.fromEntries(format.formatToParts(new Date(ms)).map((p) => [p.type, p.value]));
    return { date: `${parts.year}-${parts.month}-${parts.day}`, minutes: Number(parts.hour) * 60 + Number(parts.minute) };
  };
}

const weekdayOf = (date: string) => ((new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7) + 1;
const hhmm = (minutes: number) => (minutes === 1440 ? '24:00' : `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`);

interface Window {
  day: number;
  start: number;
  end: number;
}

function reference(zone: string, windows: Window[], from: string, to: string, duration: number, increment: number, busy: BusySpan[], pad: number) {
  const local = localReader(zone);
  const minutesByDate = new Map<string, { at: number; minutes: number }[]>();
  const first = Date.parse(`${from}T00:00:00Z`) - 15 * 60 * MINUTE;
  const last = Date.parse(`${to}T00:00:00Z`) + 40 * 60 * MINUTE;
  for (let at = first; at < last; at += MINUTE) {
    const l = local(at);
    const list = minutesByDate.get(l.date) ?? [];
    list.push({ at, minutes: l.minutes });
    minutesByDate.set(l.date, list);
  }
  const days: { date: string; slots: { startsAt: number; endsAt: number }[] }[] = [];
  for (let d = Temporal.PlainDate.from(from); Temporal.PlainDate.compare(d, Temporal.PlainDate.from(to)) <= 0; d = d.add({ days: 1 })) {
    const date = d.toString();
    const today = minutesByDate.get(date)!;
    const nextStart = minutesByDate.get(d.add({ days: 1 }).toString())![0]!.at;
    const instantOf = (minutes: number) => (minutes === 1440 ? nextStart : (today.find((m) => m.minutes >= minutes)?.at ?? nextStart));
    const slots: { startsAt: number; endsAt: number }[] = [];
    for (const w of windows.filter((x) => x.day === weekdayOf(date)).sort((a, b) => a.start - b.start)) {
      const ws = instantOf(w.start);
      const we = instantOf(w.end);
      for (let t = ws; t < we; t += MINUTE) {
        const end = t + duration * MINUTE;
        if ((t - ws) % (increment * MINUTE) !== 0 || end > we) continue;
        if (busy.some((b) => b.startsAt < end + pad && b.endsAt > t - pad)) continue;
        slots.push({ startsAt: t, endsAt: end });
      }
    }
    days.push({ date, slots });
  }
  return days;
}

/** non-overlapping windows per chosen weekday, on quarter hours (some inside the hours a change skips) */
const windowsArb = fc
  .array(
    fc.record({
      day: fc.integer({ min: 1, max: 7 }),
      cuts: fc.uniqueArray(fc.integer({ min: 0, max: 96 }), { minLength: 2, maxLength: 4 }),
    }),
    { minLength: 1, maxLength: 7 },
  )
  .map((entries) => {
    const byDay = new Map<number, number[]>();
    for (const e of entries) byDay.set(e.day, [...new Set([...(byDay.get(e.day) ?? []), ...e.cuts])].sort((a, b) => a - b));
    const out: Window[] = [];
    for (const [day, cuts] of byDay) for (let i = 0; i + 1 < cuts.length; i += 2) out.push({ day, start: cuts[i]! * 15, end: cuts[i + 1]! * 15 });
    return out;
  })
  .filter((ws) => ws.length > 0);

describe('the slot grid', () => {
  it('equals the brute-force reference across daylight-saving changes in several zones', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...CASES),
        fc.nat(),
        fc.integer({ min: -1, max: 1 }),
        fc.integer({ min: 0, max: 1 }),
        windowsArb,
        fc.constantFrom(15, 20, 30, 45, 60),
        fc.constantFrom(15, 30, 60, 90, 120),
        fc.array(fc.record({ offset: fc.integer({ min: 0, max: 3 * 24 * 4 }), length: fc.integer({ min: 1, max: 12 }) }), { maxLength: 4 }),
        fc.constantFrom(0, 15),
        (c, pick, shift, extraDays, windows, increment, duration, busyAsk, buffer) => {
          const from = Temporal.PlainDate.from(c.dates[pick % c.dates.length]!).add({ days: shift });
          const to = from.add({ days: extraDays });
          const policy: AvailabilityPolicy = {
            timeZone: c.zone,
            leadTimeMinutes: 0,
            maximumAdvanceDays: 730,
            weeklyWindows: windows.map((w) => ({ dayOfWeek: WEEKDAYS[w.day - 1]!, start: hhmm(w.start), end: hhmm(w.end) })),
            slotIncrementMinutes: increment,
            bufferBeforeMinutes: buffer,
            bufferAfterMinutes: buffer,
            minimumDurationMinutes: 1,
            maximumDurationMinutes: 10_080,
            closures: [],
          };
          const base = Date.parse(`${from.toString()}T00:00:00Z`) - 12 * 60 * MINUTE;
          const busy: BusySpan[] = busyAsk.map((b, i) => ({ spaceRecordSimplyId: 'S', startsAt: base + b.offset * 15 * MINUTE, endsAt: base + (b.offset + b.length) * 15 * MINUTE, bookingRecordSimplyId: `B${i}` }));
          const now = base - 24 * 60 * MINUTE;
          const calendar = new WindowCalendar(policy);
          const got = slotGrid(calendar, { spaceRecordSimplyIds: ['S'] }, 'S', from, to, duration, now, busy);
          expect(got).toEqual(reference(c.zone, windows, from.toString(), to.toString(), duration, increment, busy, 2 * buffer * MINUTE));
          // and every slot passes the one rule engine on its own, every other aligned start does not
          for (const day of got) for (const slot of day.slots) expect(checkBooking(calendar, { spaceRecordSimplyIds: ['S'] }, { ...slot, spaceRecordSimplyIds: ['S'], now }, busy).diagnostics).toEqual([]);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('keeps a 09:00-17:00 window at 09:00-17:00 local time on both sides of a change', () => {
    const policy: AvailabilityPolicy = {
      timeZone: 'Europe/Berlin',
      leadTimeMinutes: 0,
      maximumAdvanceDays: 730,
      weeklyWindows: WEEKDAYS.map((dayOfWeek) => ({ dayOfWeek, start: '09:00', end: '17:00' })),
      slotIncrementMinutes: 60,
      bufferBeforeMinutes: 0,
      bufferAfterMinutes: 0,
      minimumDurationMinutes: 60,
      maximumDurationMinutes: 60,
      closures: [],
    };
    const days = slotGrid(new WindowCalendar(policy), { spaceRecordSimplyIds: ['S'] }, 'S', Temporal.PlainDate.from('2026-03-28'), Temporal.PlainDate.from('2026-03-29'), 60, Date.parse('2026-03-01T00:00:00Z'), []);
    expect(new Date(days[0]!.slots[0]!.startsAt).toISOString()).toBe('2026-03-28T08:00:00.000Z');
    expect(new Date(days[1]!.slots[0]!.startsAt).toISOString()).toBe('2026-03-29T07:00:00.000Z');
    expect(days.map((d) => d.slots.length)).toEqual([8, 8]);
  });
});
