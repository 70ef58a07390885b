// A widget's identity secret: the HMAC key the team's own server signs visitor identities with.
// Verifying needs the secret itself, so it is sealed like a webhook's signing secret
// (src/app/secret-box.ts), bound to its team and widget, and shown only when made (create, rotate).
import type { Services } from '../../app/context.ts';
import { randomSecret } from '../../app/ids.ts';
import { secretBoxFor } from '../../app/secret-box.ts';

const context = (teamId: bigint, widgetSimplyId: string) => `conversation-widget:${teamId}:${widgetSimplyId}`;

export interface NewIdentitySecret {
  secret: string;
  ciphertext: Uint8Array<ArrayBuffer>;
  hint: string;
}

export function newIdentitySecret(services: Services, teamId: bigint, widgetSimplyId: string): NewIdentitySecret {
  const secret = `wsec_${randomSecret(32)}`;
  return {
    secret,
    ciphertext: secretBoxFor(services.config.secretsKeyFile).seal(secret, context(teamId, widgetSimplyId)) as Uint8Array<ArrayBuffer>,
    hint: `wsec_…${secret.slice(-4)}`,
  };
}

/** The secret, or null when its box does not open (another instance key): no identity verifies then. */
export function openIdentitySecret(services: Services, teamId: bigint, widgetSimplyId: string, ciphertext: Uint8Array): string | null {
  try {
    return secretBoxFor(services.config.secretsKeyFile).open(ciphertext, context(teamId, widgetSimplyId));
  } catch {
    return null;
  }
}
