// The order and limits of delivery jobs (queue webhooks.deliver), set when a job is queued.
//
// Per target: every job carries the pg-boss group `<teamId>:<target origin>`, and the queue's
// groupConcurrency caps how many of a group's jobs are active at once over every instance, so a
// slow or dead receiver can hold at most that many attempts while the others go on.
//
// Per team: pg-boss fetches by priority (highest first), then by age. A new delivery's priority is
// -floor(p / FAIR_SHARE), where p is the number of the team's deliveries still waiting for their
// first attempt when it was queued (its place in the team's own backlog). So a team's first
// FAIR_SHARE deliveries rank 0, the next FAIR_SHARE -1, and so on: a burst of one team is served
// in rounds, and another team's delivery waits behind at most about FAIR_SHARE × (its own round
// + 1) deliveries of each other team, however large their bursts. Retries and deferrals keep the
// priority of the delivery's first job.

/** deliveries of one team per round of the fair order */
export const FAIR_SHARE = 25;

/** The pg-boss group of a target: one team's deliveries to one origin. */
export function targetGroupId(teamId: string, origin: string): string {
  return `${teamId}:${origin}`;
}

/** https://host[:port] of a target URL, or null for one that does not parse (its attempt fails anyway). */
export function targetOrigin(targetUrl: string): string | null {
  try {
    return new URL(targetUrl).origin;
  } catch {
    return null;
  }
}

/** Priority of a new delivery that has `waitingAhead` deliveries of its team queued before it. */
export function fairPriority(waitingAhead: number): number {
  return -Math.floor(waitingAhead / FAIR_SHARE);
}
