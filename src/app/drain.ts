// The first part of a shutdown, for load balancers: /readyz answers 503 at once while the instance
// goes on serving every request, old and new, for SHUTDOWN_GRACE_MS. A balancer that polls /readyz
// takes the instance out of rotation within that time, so no client meets a refused connection;
// then the listener closes and in-flight work finishes within SHUTDOWN_TIMEOUT_MS (server.ts).
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';

export const NOT_READY_SHUTTING_DOWN = {
  status: 503,
  code: 'NOT_READY',
  message: 'The server is shutting down',
} as const;

export class Readiness {
  private drainingSince: number | null = null;

  /** false from the start of a shutdown */
  get ready(): boolean {
    return this.drainingSince === null;
  }

  /**
   * Turns readiness off and waits `graceMs` with the server still serving. Responses meanwhile
   * close their connection (see `server.ts`), so keep-alive clients and balancer pools reconnect,
   * and find another instance once this one is out of rotation.
   */
  async drain(graceMs: number, logger: Logger): Promise<void> {
    if (this.drainingSince !== null) return;
    this.drainingSince = Date.now();
    if (graceMs <= 0) return;
    logger.info({ graceMs }, 'draining: /readyz answers 503, requests are still served until the grace period ends');
    await sleep(graceMs);
    logger.info('grace period over: no new connections');
  }
}
