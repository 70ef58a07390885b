// Waiting in a bench section until a background task has finished: its detail polled every 100 ms
// as the team's signed-in member (background tasks refuse API keys; the team goes in the query).
import type { ApiClient } from '../events/api-client.ts';

const FINISHED = ['COMPLETED', 'FAILED', 'PARTIAL_SUCCESS'];

export async function untilTaskFinished(api: ApiClient, teamSimplyId: string, taskId: string, timeoutMs: number): Promise<any> {
  const started = Date.now();
  for (;;) {
    const task = await api.expect(200, 'GET', `/v1/background-tasks/${taskId}?teamSimplyId=${teamSimplyId}`);
    if (FINISHED.includes(task.status)) return task;
    if (Date.now() - started > timeoutMs) throw new Error(`task ${taskId} still ${task.status} after ${timeoutMs} ms (${JSON.stringify(task.progress)})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
