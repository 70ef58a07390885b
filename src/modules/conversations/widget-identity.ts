// Verified visitor identity (docs/api/conversations.md "Identity verification"): the team's own
// server signs who the visitor is, the widget's page passes it on, and the platform checks it here.
//
//   payload   = widgetSimplyId + "\n" + timestamp + "\n" + visitorId + "\n" + (email ?? "") + "\n" + (name ?? "")
//   signature = hex(HMAC-SHA256(identity secret, payload))
//
// The timestamp (Unix seconds) must be within WIDGET_LIMITS.signatureWindowSeconds of the server's
// clock either way, and each signature opens one session (ConversationWidgetSignatureUse), so a
// signature copied out of a page is worth nothing once used or a few minutes later.
import { createHash, createHmac } from 'node:crypto';
import type pg from 'pg';
import { constantTimeEqual } from '../../app/auth/tokens.ts';
import { WidgetIdentityExpiredError, WidgetIdentityInvalidError, WidgetIdentityReplayedError } from './widget.errors.ts';
import { WIDGET_LIMITS } from './widget.input.ts';

/** The identity exactly as the team's server signed it: the strings as sent, before any normalising. */
export interface SignedIdentity {
  visitorId: string;
  email: string | null;
  name: string | null;
  timestamp: number | undefined;
  signature: string | undefined;
}

export function identityPayload(widgetSimplyId: string, timestamp: number, visitorId: string, email: string | null, name: string | null): string {
  return [widgetSimplyId, String(timestamp), visitorId, email ?? '', name ?? ''].join('\n');
}

export function signIdentity(secret: string, payload: string): string {
  return createHmac('sha256', secret).update(payload, 'utf8').digest('hex');
}

/** Throws the 401 that says what is wrong: a wrong signature, a timestamp out of the window, or none given. */
export function verifyIdentitySignature(secret: string | null, widgetSimplyId: string, identity: SignedIdentity, now = Date.now()): { expiresAt: Date } {
  const { timestamp, signature } = identity;
  if (timestamp === undefined || !signature || secret === null) throw new WidgetIdentityInvalidError();
  const expected = signIdentity(secret, identityPayload(widgetSimplyId, timestamp, identity.visitorId, identity.email, identity.name));
  // compared in constant time; a signature of the right identity but an old timestamp says so (it verified)
  if (!constantTimeEqual(signature.toLowerCase(), expected)) throw new WidgetIdentityInvalidError();
  const window = WIDGET_LIMITS.signatureWindowSeconds;
  if (Math.abs(now / 1000 - timestamp) > window) throw new WidgetIdentityExpiredError(window);
  return { expiresAt: new Date((timestamp + window + 60) * 1000) };
}

/** Records the signature's one use (in the minting transaction); a second use is 401 WIDGET_IDENTITY_REPLAYED. */
export async function useSignatureOnce(db: pg.PoolClient, teamId: bigint, widgetId: bigint, signature: string, expiresAt: Date): Promise<void> {
  const hash = createHash('sha256').update(signature.toLowerCase()).digest('hex');
  const { rowCount } = await db.query(
    `INSERT INTO "ConversationWidgetSignatureUse" ("teamId", "widgetId", "signatureHash", "expiresAt") VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
    [teamId, widgetId, hash, expiresAt],
  );
  if (rowCount === 0) throw new WidgetIdentityReplayedError();
}
