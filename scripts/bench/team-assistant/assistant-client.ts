// The assistant's REST face as the bootstrapped team admin signed in (API keys are refused by the
// assistant): sending a question and reading a run. The team is named in the query, which the
// adapter takes as the credential's team selection, so the shared ApiClient serves as it is.
import { randomUUID } from 'node:crypto';
import { ApiClient } from '../events/api-client.ts';
import type { PlatformProcess } from '../events/platform-process.ts';
import type { BootstrappedTeam } from '../section-bed.ts';

export interface RunEventView {
  sequence: number;
  eventType: string;
  createdAt: string;
}

export interface RunView {
  runSimplyId: string;
  status: string;
  startedAt: string;
  completedAt: string | null;
  error: { code: string; userVisibleSummary: string } | null;
  runtimeEvents: RunEventView[];
}

export interface SentQuestion {
  runSimplyId: string;
  /** wall-clock ms just before the POST was sent, and when its 202 had arrived */
  sentAt: number;
  answeredAt: number;
}

export class AssistantClient {
  readonly #api: ApiClient;
  readonly #team: string;

  constructor(platform: PlatformProcess, boot: BootstrappedTeam, sockets: number) {
    this.#api = new ApiClient({ baseUrl: platform.baseUrl, ca: platform.ca, apiKey: boot.userToken, sockets });
    this.#team = `teamSimplyId=${encodeURIComponent(boot.teamSimplyId)}`;
  }

  async send(message: string): Promise<SentQuestion> {
    const response = await this.#api.request('POST', `/v1/team-agent/messages?${this.#team}`, { message, idempotencyKey: randomUUID() });
    const runSimplyId = response.body?.data?.runSimplyId;
    if (response.status !== 202 || typeof runSimplyId !== 'string') throw new Error(`sending a question answered ${response.status}: ${JSON.stringify(response.body).slice(0, 500)}`);
    return { runSimplyId, sentAt: response.sentAt, answeredAt: response.doneAt };
  }

  async run(runSimplyId: string): Promise<RunView> {
    const response = await this.#api.request('GET', `/v1/team-agent/runs/${runSimplyId}?${this.#team}`);
    if (response.status !== 200) throw new Error(`reading run ${runSimplyId} answered ${response.status}: ${JSON.stringify(response.body).slice(0, 500)}`);
    return response.body.data as RunView;
  }

  /** The run once it is no longer RUNNING (read every `everyMs`; rejects after `timeoutMs`). */
  async settled(runSimplyId: string, timeoutMs: number, everyMs = 25): Promise<RunView> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const run = await this.run(runSimplyId);
      if (run.status !== 'RUNNING') return run;
      if (Date.now() > deadline) throw new Error(`run ${runSimplyId} still RUNNING after ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  }

  close(): void {
    this.#api.close();
  }
}
