// What of another team may never reach a caller: its ids, its secrets, the names it gave its things
// (each holds the world's label, which also survives in derived names such as column names).
import { NOT_TEAM_IDS, type RouteWorld } from '../support/route-world.ts';

export interface ForeignTraces {
  /** exact strings: ids, emails, the API key */
  exact: string[];
  /** matched case-insensitively: the world's label */
  label: string;
}

export function foreignTraces(world: RouteWorld, label: string): ForeignTraces {
  const { team } = world;
  const ids = Object.entries(world.ids).filter(([param]) => !NOT_TEAM_IDS.has(param)).map(([, id]) => id);
  const exact = [...ids, team.teamSimplyId, team.userSimplyId, team.email, team.apiKey, team.apiKeySimplyId, team.teamRoleSimplyId, ...world.names];
  return { exact: [...new Set(exact)], label };
}

/**
 * The traces found in `text`, leaving out those the caller itself sent (`sent`: path and body as
 * sent): echoing an id back to the one who named it reveals nothing.
 */
export function findTraces(text: string, traces: ForeignTraces, sent: string): string[] {
  const found = traces.exact.filter((t) => text.includes(t) && !sent.includes(t));
  if (text.toLowerCase().includes(traces.label.toLowerCase()) && !sent.toLowerCase().includes(traces.label.toLowerCase())) found.push(`label ${traces.label}`);
  return found;
}
