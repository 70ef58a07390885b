// GET /v1/users/me, the first call of the user and identity tests.
import type { TestResponse, TestServer } from './server.ts';

/** `query` is the query string without `?` (e.g. `expand=teams`). */
export function getMe(server: TestServer, token: string, options: { teamId?: string; query?: string } = {}): Promise<TestResponse> {
  return server.request('GET', `/v1/users/me${options.query ? `?${options.query}` : ''}`, { token, teamId: options.teamId });
}
