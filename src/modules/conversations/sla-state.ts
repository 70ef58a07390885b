// The clocks of a conversation under its SLA policy, computed from the conversation's own times
// (so they are right whenever they are read, and a policy changed later moves them):
//
//   FIRST_RESPONSE  from creation to the first agent (or AI) reply (firstResponseAt)
//   NEXT_RESPONSE   after the first reply, from the visitor's first message the team has not yet
//                   answered to the next agent (or AI) reply; a clock only while one is awaited
//   RESOLUTION      from creation to RESOLVED or CLOSED (a reopen runs it again, from creation)
//
// Each target is business minutes of the policy's calendar (its time zone's opening hours,
// holidays closed; no hours: around the clock). A clock stops when met, and when the conversation
// is resolved, closed or merged. The warning comes at `warningPercent` of the target.
import { addBusinessMinutes, type BusinessCalendar } from './sla-clock.ts';
import type { SlaClock } from './routing.input.ts';
import type { PolicyRow } from './sla-policies.sql.ts';

export interface SlaFacts {
  createdAt: Date;
  priority: string;
  status: string;
  firstResponseAt: Date | null;
  resolvedAt: Date | null;
  mergedIntoId: bigint | null;
  /** the visitor's first message after the team's latest reply (null: none awaits an answer) */
  awaitingSince: Date | null;
}

export interface ClockState {
  clock: SlaClock;
  targetMinutes: number;
  startedAt: Date;
  /** null: the calendar is not open long enough within three years to meet it */
  dueAt: Date | null;
  warnAt: Date | null;
  metAt: Date | null;
  running: boolean;
  breached: boolean;
}

const calendars = new WeakMap<PolicyRow, BusinessCalendar>();

export function calendarOf(policy: PolicyRow): BusinessCalendar {
  let calendar = calendars.get(policy);
  if (!calendar) {
    calendar = { timeZone: policy.timeZone, hours: policy.businessHours, holidays: new Set(policy.holidays) };
    calendars.set(policy, calendar);
  }
  return calendar;
}

const FINISHED = ['RESOLVED', 'CLOSED'];

export function slaClocks(policy: PolicyRow, f: SlaFacts, now: Date): ClockState[] {
  const targets = policy.targets[f.priority as keyof PolicyRow['targets']] ?? {};
  const calendar = calendarOf(policy);
  const live = f.mergedIntoId === null && !FINISHED.includes(f.status);
  const clocks: ClockState[] = [];
  const add = (clock: SlaClock, minutes: number | null | undefined, startedAt: Date, metAt: Date | null, running: boolean) => {
    if (!minutes) return;
    const dueAt = addBusinessMinutes(calendar, startedAt, minutes);
    const warnAt = addBusinessMinutes(calendar, startedAt, (minutes * policy.warningPercent) / 100);
    const ending = metAt ?? (running ? now : null);
    clocks.push({ clock, targetMinutes: minutes, startedAt, dueAt, warnAt, metAt, running, breached: dueAt !== null && ending !== null && ending > dueAt });
  };
  add('FIRST_RESPONSE', targets.firstResponseMinutes, f.createdAt, f.firstResponseAt, f.firstResponseAt === null && live);
  if (f.firstResponseAt !== null && f.awaitingSince !== null) add('NEXT_RESPONSE', targets.nextResponseMinutes, f.awaitingSince, null, live);
  const resolved = FINISHED.includes(f.status) ? (f.resolvedAt ?? null) : null;
  add('RESOLUTION', targets.resolutionMinutes, f.createdAt, resolved, live);
  return clocks;
}

/** When the clocks need a look next: the earliest warning or due time still ahead of a running clock (null: none). */
export function nextCheckOf(clocks: readonly ClockState[], now: Date): Date | null {
  const ahead = clocks
    .filter((c) => c.running)
    .flatMap((c) => [c.warnAt, c.dueAt])
    .filter((t): t is Date => t !== null && t > now)
    .map((t) => t.getTime());
  return ahead.length ? new Date(Math.min(...ahead)) : null;
}
