// What a race case works with: a team of its own, the credential that races, N identical or
// conflicting requests sent at once, and the checks every answer of a race must pass (no 5xx, the
// error envelope on every refusal, only the refusals the case allows). Problems are collected, not
// thrown, so one run reports every route's defects together.
import { envelopeAnswer, envelopeProblem } from '../support/envelope-problems.ts';
import type { TeamFixture } from '../support/fixtures.ts';
import type { TestResponse, TestServer } from '../support/server.ts';

/** requests per race */
export const N = 8;

export type CallerKind = 'API key' | 'team-admin user' | 'system admin' | 'anonymous';

export interface Caller {
  kind: CallerKind;
  token?: string;
  teamId?: string;
}

export interface Sent {
  method: string;
  path: string;
  body?: unknown;
}

export interface Exchange {
  sent: Sent;
  response: TestResponse;
}

export interface RaceKit {
  server: TestServer;
  /** a fresh team: the case's things are alone in it */
  team: TeamFixture;
  caller: Caller;
  /** set-up and read-back as the team's API key; throws on anything but a 2xx (a broken set-up is not a race result) */
  admin(method: string, path: string, body?: unknown): Promise<any>;
  /** the same, returning the whole response whatever its status */
  adminResponse(method: string, path: string, body?: unknown): Promise<TestResponse>;
  /** sends every request at once as the caller, or `as` (one request: N copies of it) */
  race(requests: Sent | Sent[], as?: { token?: string; teamId?: string }): Promise<Exchange[]>;
  /**
   * records 5xx, broken envelopes and statuses not in `allowed` (`"404 NOT_FOUND"`, `"201"`); a
   * 409 CONFLICT is always allowed: a write that keeps colliding with concurrent writers is
   * refused with it, nothing written (docs/api/conventions.md, "Concurrent writes")
   */
  expectAnswers(exchanges: Exchange[], allowed: readonly string[]): void;
  /** records a problem, with the exchanges that show it */
  problem(message: string, exchanges?: Exchange[]): void;
  readonly problems: string[];
}

export function describeExchange(x: Exchange): string {
  const body = x.sent.body === undefined ? '' : ` body ${JSON.stringify(x.sent.body).slice(0, 300)}`;
  return `${x.sent.method} ${x.sent.path}${body} → ${x.response.status} ${x.response.text.slice(0, 300)}`;
}

const answerLabel = (r: TestResponse) => (r.status < 300 ? String(r.status) : `${r.status} ${r.body?.error?.code ?? '?'}`);

/** `200 ×7, 500 INTERNAL_ERROR ×1` */
export function tally(exchanges: Exchange[]): string {
  const counts = new Map<string, number>();
  for (const x of exchanges) counts.set(answerLabel(x.response), (counts.get(answerLabel(x.response)) ?? 0) + 1);
  return [...counts].map(([label, n]) => `${label} ×${n}`).join(', ');
}

export const succeeded = (exchanges: Exchange[]) => exchanges.filter((x) => x.response.status < 300);

export function createRaceKit(server: TestServer, team: TeamFixture, caller: Caller, label: string): RaceKit {
  const problems: string[] = [];
  const send = (who: { token?: string; teamId?: string }, sent: Sent) => server.request(sent.method, sent.path, { token: who.token, teamId: who.teamId, body: sent.body });
  const adminResponse = (method: string, path: string, body?: unknown) => send({ token: team.apiKey }, { method, path, body });
  const problem = (message: string, exchanges: Exchange[] = []) => {
    const shown = exchanges.slice(0, 3).map((x) => `\n    ${describeExchange(x)}`).join('');
    problems.push(`${label} [${caller.kind}]: ${message}${exchanges.length ? ` (answers: ${tally(exchanges)})` : ''}${shown}`);
  };
  return {
    server,
    team,
    caller,
    problems,
    problem,
    adminResponse,
    async admin(method, path, body) {
      const response = await adminResponse(method, path, body);
      if (response.status >= 300) throw new Error(`${label}: set-up ${method} ${path} answered ${response.status} ${response.text.slice(0, 500)}`);
      return response.body?.data;
    },
    async race(requests, as = caller) {
      const all = Array.isArray(requests) ? requests : Array.from({ length: N }, () => requests);
      return Promise.all(all.map(async (sent) => ({ sent, response: await send(as, sent) })));
    },
    expectAnswers(exchanges, allowed) {
      const serverErrors = exchanges.filter((x) => x.response.status >= 500);
      if (serverErrors.length) problem(`${serverErrors.length} of ${exchanges.length} answered 5xx`, [...serverErrors, ...exchanges.filter((x) => x.response.status < 500)]);
      const broken = exchanges.filter((x) => envelopeProblem(envelopeAnswer(x.response)));
      if (broken.length) problem(`${envelopeProblem(envelopeAnswer(broken[0]!.response))}`, broken);
      const unexpected = exchanges.filter((x) => x.response.status < 500 && answerLabel(x.response) !== '409 CONFLICT' && !allowed.includes(answerLabel(x.response)));
      if (unexpected.length) problem(`answers outside ${allowed.join(' | ')}`, unexpected);
    },
  };
}

/** one race on one route: builds what it needs in `kit.team`, races, and checks what is left */
export interface RaceCase {
  what: string;
  /** who races; default the team's API key and its team-admin user */
  callers?: readonly CallerKind[];
  run(kit: RaceKit): Promise<void>;
}

/** `${method} ${path}` → its races */
export type RaceTable = Record<string, RaceCase[]>;
