// Recurring authorization shapes, named after the tiers of Document 1 §1.4.
import type { FeatureLevel } from '../auth/feature-permissions.ts';

/** Privileged tier: team context, not a scoped token, and the admin feature permission. */
export const privileged = (name: string, level: FeatureLevel) =>
  ({ $all: { team: true, privileged: true, feature: { name, level } } }) as const;

/** Standard tier with a feature permission (API keys and session tokens allowed). */
export const standardFeature = (name: string, level: FeatureLevel) =>
  ({ $all: { team: true, feature: { name, level } } }) as const;
