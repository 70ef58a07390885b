// Between what oidc-provider hands its adapter and an OAuthState row. The stored payload holds no
// bearer value in the clear: the id (`jti`) is dropped, or sealed where it cannot be had from the
// lookup (oauth-sealed-fields.ts), and `consumed` lives in its own column so that consume() is one
// UPDATE that cannot lose a concurrent write to the payload.
import type { AdapterPayload } from 'oidc-provider';
import type { SecretBox } from '../../app/secret-box.ts';
import { keepsSealedId, openFields, sealFields } from './oauth-sealed-fields.ts';

export interface OAuthStateRow {
  payload: Record<string, unknown>;
  accountId: string | null;
  grantId: string | null;
  uid: string | null;
  userCode: string | null;
  expiresAt: Date | null;
  consumedAt: Date | null;
}

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

export function toRow(box: SecretBox, model: string, key: string, id: string, payload: AdapterPayload, expiresIn?: number): OAuthStateRow {
  const { consumed, ...rest } = payload;
  // a jti other than the id is not the row's own id: it stays, like any other claim
  if (rest.jti === id && !keepsSealedId(model)) delete rest.jti;
  return {
    payload: sealFields(box, model, key, rest),
    accountId: text(payload.accountId),
    // a Grant belongs to itself: its id is no credential, and its owner lists and revokes it by it
    grantId: text(payload.grantId) ?? (model === 'Grant' ? id : null),
    uid: text(payload.uid),
    userCode: text(payload.userCode),
    expiresAt: typeof expiresIn === 'number' ? new Date(Date.now() + expiresIn * 1000) : null,
    consumedAt: typeof consumed === 'number' ? new Date(consumed * 1000) : null,
  };
}

/** `id` is the id the row was looked up by, when it was (find); a Client's metadata has no jti. */
export function fromRow(box: SecretBox, model: string, row: { key: string; payload: unknown; consumedAt: Date | null }, id?: string): AdapterPayload {
  const payload: AdapterPayload = openFields(box, model, row.key, row.payload as Record<string, unknown>);
  if (id !== undefined && payload.jti === undefined && model !== 'Client') payload.jti = id;
  if (row.consumedAt) payload.consumed = Math.floor(row.consumedAt.getTime() / 1000);
  return payload;
}
