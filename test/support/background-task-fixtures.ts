// Background tasks in tests (docs/api/background-tasks.md): start one as a signed-in member,
// wait until it has finished, read its detail. Tasks refuse API keys, so every call takes a user's
// token and the team.
import type { TeamFixture } from './fixtures.ts';
import type { TestServer } from './server.ts';
import { untilWith } from './until.ts';

export const FINISHED = ['COMPLETED', 'FAILED', 'PARTIAL_SUCCESS'];
const untilLong = untilWith({ timeoutMs: 60_000, everyMs: 50 });

export interface Member {
  token: string;
  teamId: string;
}

/** The team admin of a fixture team, as a task starter. */
export function adminOf(team: TeamFixture): Member {
  return { token: team.userToken, teamId: team.teamSimplyId };
}

/** POST /v1/background-tasks; throws unless 201. Answers the created task. */
export async function createTask(server: TestServer, who: Member, enumBackgroundTaskTypeId: string, queueData?: Record<string, unknown>): Promise<any> {
  const response = await server.request('POST', '/v1/background-tasks', { token: who.token, teamId: who.teamId, body: { enumBackgroundTaskTypeId, ...(queueData ? { queueData } : {}) } });
  if (response.status !== 201) throw new Error(`createTask ${enumBackgroundTaskTypeId}: ${response.status} ${response.text}`);
  return response.body.data;
}

export async function readTask(server: TestServer, who: Member, simplyId: string): Promise<any> {
  const response = await server.request('GET', `/v1/background-tasks/${simplyId}`, { token: who.token, teamId: who.teamId });
  if (response.status !== 200) throw new Error(`readTask ${simplyId}: ${response.status} ${response.text}`);
  return response.body.data;
}

/** Waits until the task is COMPLETED, FAILED or PARTIAL_SUCCESS and answers its detail. */
export async function untilTaskDone(server: TestServer, who: Member, simplyId: string): Promise<any> {
  let task: any;
  await untilLong(`task ${simplyId} to finish`, async () => {
    task = await readTask(server, who, simplyId);
    return FINISHED.includes(task.status);
  });
  return task;
}

/** createTask + untilTaskDone. */
export async function runTask(server: TestServer, who: Member, type: string, queueData?: Record<string, unknown>): Promise<any> {
  const task = await createTask(server, who, type, queueData);
  return untilTaskDone(server, who, task.backgroundTaskSimplyId);
}
