// How the tenancy suite sends a request and reads its answer: who calls, what was sent (for the
// failure report and for telling echoed ids from leaked ones), and the answer reduced to what a
// caller could tell two ids apart by.
import type { TeamFixture } from '../support/fixtures.ts';
import type { TestResponse, TestServer } from '../support/server.ts';
import { NO_BODY } from '../support/area-kit.ts';

export interface Caller {
  name: string;
  token: string;
  teamId?: string;
}

/** a team's full-access API key and its team-admin user (team selected) */
export const callersOf = (team: TeamFixture): Caller[] => [
  { name: 'API key', token: team.apiKey },
  { name: 'team-admin user', token: team.userToken, teamId: team.teamSimplyId },
];

export interface Sent {
  method: string;
  path: string;
  body?: unknown;
}

export interface Exchange {
  caller: Caller;
  sent: Sent;
  response: TestResponse;
}

export async function exchange(server: TestServer, caller: Caller, sent: Sent): Promise<Exchange> {
  const body = sent.body === NO_BODY ? undefined : sent.body;
  const response = await server.request(sent.method, sent.path, { token: caller.token, teamId: caller.teamId, body });
  return { caller, sent: { ...sent, body }, response };
}

/** what was sent, as one string (ids named in it are the caller's to see again) */
/** What the caller sent, path parameters decoded too (an answer may echo `a@b` sent as `a%40b`). */
export const sentText = (sent: Sent): string => `${sent.path} ${decodeURIComponent(sent.path)} ${sent.body === undefined ? '' : JSON.stringify(sent.body)}`;

export function describeExchange(x: Exchange): string {
  const body = x.sent.body === undefined ? '' : ` body ${JSON.stringify(x.sent.body)}`;
  return `[${x.caller.name}] ${x.sent.method} ${x.sent.path}${body} → ${x.response.status} ${x.response.text.slice(0, 400)}`;
}

/** What tells two answers apart, with the ids each request named replaced by the same placeholders. */
export function distinguishable(response: TestResponse, named: readonly string[]): { status: number; code?: string; message?: string; details?: string } {
  const neutral = (text: string | undefined) => named.reduce((t, id, i) => t?.split(id).join(`<id${i}>`), text);
  const error = response.body?.error;
  if (!error) return { status: response.status };
  return { status: response.status, code: error.code, message: neutral(error.message), details: neutral(JSON.stringify(error.details ?? null)) };
}
