// How a push send is retried: transient provider failures (5xx, 429, timeouts, refused
// connections) back off exponentially; after the last attempt the delivery is FAILED.
export const PUSH_SEND_ATTEMPTS = 6;

export const pushSendOptions = {
  retryLimit: PUSH_SEND_ATTEMPTS - 1,
  retryDelay: 2,
  retryBackoff: true,
  retryDelayMax: 300,
  expireInSeconds: 120,
} as const;
