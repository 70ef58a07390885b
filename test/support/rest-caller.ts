// The `call(method, path, body?, token?)` shorthand of suites that mostly speak as one team's API key.
import type { TestResponse, TestServer } from './server.ts';

export type RestCall = (method: string, path: string, body?: unknown, token?: string, teamId?: string) => Promise<TestResponse>;

/** `server` and `defaultToken` are read on every call: suites assign them in beforeAll. */
export function restCaller(server: () => TestServer, defaultToken: () => string): RestCall {
  return (method, path, body, token = defaultToken(), teamId) => server().request(method, path, { token, body, teamId });
}
