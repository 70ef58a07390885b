// The lifetimes and rate limits of constituent sign-in (docs/api/constituent-auth.md "Limits").
export const CODE_TTL_MS = 15 * 60_000;
export const LINK_TTL_MS = 2 * 3600_000;
export const MAX_FAILED_ATTEMPTS = 5;
export const ACCESS_TTL_MS = 30 * 60_000;
export const REFRESH_TTL_MS = 90 * 86_400_000;

export const INITIATE_PER_IP = { limit: 5, windowSeconds: 15 * 60 };
export const VERIFY_PER_IP = { limit: 10, windowSeconds: 15 * 60 };
export const REFRESH_PER_TOKEN = { limit: 30, windowSeconds: 3600 };

/**
 * Every initiate answers no sooner than this after it started, matched or not. The decoy already
 * does the same statements as a real send (see initiate.service.ts); the floor hides what is left
 * (a team's schema loaded for the first time, the mail's validation) under a constant.
 */
export const INITIATE_MIN_DURATION_MS = 200;
