// How a push send is retried: transient provider failures (5xx, 429, timeouts, refused
// connections) back off exponentially (PUSH_RETRY_DELAY_SECONDS, doubling, at most 5 minutes);
// after the last of PUSH_SEND_ATTEMPTS the delivery is FAILED.
import type { Config } from '../../../app/config.ts';

const RETRY_DELAY_MAX_SECONDS = 300;

export function pushSendOptions(config: Pick<Config, 'PUSH_SEND_ATTEMPTS' | 'PUSH_RETRY_DELAY_SECONDS'>) {
  const backoff = config.PUSH_RETRY_DELAY_SECONDS > 0;
  return {
    retryLimit: config.PUSH_SEND_ATTEMPTS - 1,
    retryDelay: config.PUSH_RETRY_DELAY_SECONDS,
    // pg-boss waits at least a second between backed-off retries; a delay of 0 (tests) retries at once
    retryBackoff: backoff,
    ...(backoff ? { retryDelayMax: RETRY_DELAY_MAX_SECONDS } : {}),
    expireInSeconds: 120,
  };
}

/** Whether the job holding `retryCount` runs the last attempt it is allowed. */
export function isLastAttempt(config: Pick<Config, 'PUSH_SEND_ATTEMPTS'>, retryCount: number): boolean {
  return retryCount >= config.PUSH_SEND_ATTEMPTS - 1;
}
