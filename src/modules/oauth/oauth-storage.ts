// oidc-provider's adapter over the OAuthState table: the class its `adapter` option takes, one
// instance per model (oidc-provider constructs them itself, with the model name only, so the
// database and the secret box reach the class through the factory's closure).
// A row's key is the digest of the object's id (hashToken, as for API keys and session tokens):
// opaque tokens, codes and session cookies are the id itself, so someone reading the table (a
// backup, a replica) learns no value they could present, and a lookup stays one indexed equality.
import type { Adapter, AdapterConstructor, AdapterPayload } from 'oidc-provider';
import type { Services } from '../../app/context.ts';
import { type SecretBox, secretBoxFor } from '../../app/secret-box.ts';
import type { Prisma } from '../../generated/prisma/client.ts';
import { live, type OAuthDb } from './oauth-db.ts';
import { hashToken } from '../../app/auth/tokens.ts';
import { fromRow, toRow } from './oauth-payload.ts';
import { type ForgetDeps, forgetAccounts } from './oauth-credentials.ts';
import { oidcProvider } from './oauth-provider.ts';

/**
 * The models whose objects belong to a grant and go when it is revoked: tokens and codes. Not the
 * Grant itself (oidc-provider destroys it by id, when its revokeGrantPolicy says so) nor an
 * Interaction that merely names the grant it continues (memory_adapter.js draws the same line).
 */
const OF_A_GRANT = ['AccessToken', 'AuthorizationCode', 'RefreshToken', 'DeviceCode', 'BackchannelAuthenticationRequest', 'PreAuthorizedCode'];

export interface OAuthStorageDeps {
  prisma: OAuthDb;
  /** seals client secrets and the bearer values payloads carry (oauth-sealed-fields.ts) */
  secretBox: SecretBox;
  /**
   * Told the accounts whose access tokens were just deleted (revoked one by one, or with their
   * grant), so that no instance keeps accepting them from its credential cache.
   */
  accessRevoked?: (accountIds: string[]) => Promise<void>;
}

export function oauthStorage({ prisma, secretBox, accessRevoked }: OAuthStorageDeps): AdapterConstructor {
  /** Deletes the rows, telling accessRevoked whose access tokens went. */
  const remove = async (where: Prisma.OAuthStateWhereInput) => {
    const tokens = accessRevoked ? await prisma.oAuthState.findMany({ where: { AND: [where, { model: 'AccessToken' }] }, select: { payload: true } }) : [];
    await prisma.oAuthState.deleteMany({ where });
    const accounts = [...new Set(tokens.map((t) => (t.payload as { accountId?: unknown }).accountId).filter((a): a is string => typeof a === 'string'))];
    if (accounts.length) await accessRevoked!(accounts);
  };

  return class OAuthStorage implements Adapter {
    readonly model: string;

    constructor(model: string) {
      this.model = model;
    }

    async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
      const key = hashToken(id);
      const { payload: stored, ...columns } = toRow(secretBox, this.model, key, id, payload, expiresIn);
      // every column is written on update too: an upsert replaces the object, it does not merge
      const data = { ...columns, payload: stored as Prisma.InputJsonObject };
      await prisma.oAuthState.upsert({
        where: { model_key: { model: this.model, key } },
        create: { model: this.model, key, ...data },
        update: data,
      });
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      const key = hashToken(id);
      const row = await prisma.oAuthState.findFirst({ where: { model: this.model, key, ...live() } });
      return row ? fromRow(secretBox, this.model, row, id) : undefined;
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      const row = await prisma.oAuthState.findFirst({ where: { model: this.model, uid, ...live() } });
      return row ? fromRow(secretBox, this.model, row) : undefined;
    }

    async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      const row = await prisma.oAuthState.findFirst({ where: { model: this.model, userCode, ...live() } });
      return row ? fromRow(secretBox, this.model, row) : undefined;
    }

    /**
     * Single use, also under concurrency: oidc-provider checks `consumed` before it consumes, so two
     * requests presenting the same code (or refresh token) at once would both pass its check. Only
     * the first marks the row; the other is a second use, answered as oidc-provider answers one:
     * the grant's tokens and codes go, and the request is invalid_grant.
     */
    async consume(id: string): Promise<void> {
      const key = hashToken(id);
      const { count } = await prisma.oAuthState.updateMany({ where: { model: this.model, key, consumedAt: null }, data: { consumedAt: new Date() } });
      if (count > 0) return;
      const row = await prisma.oAuthState.findFirst({ where: { model: this.model, key }, select: { grantId: true } });
      if (row?.grantId) {
        // the grant itself too: tokens the first use saves after this still name a grant that is gone
        await remove({ grantId: row.grantId, model: { in: OF_A_GRANT } });
        await remove({ model: 'Grant', key: hashToken(row.grantId) });
      }
      throw new (oidcProvider().errors).InvalidGrant('grant request is invalid');
    }

    async destroy(id: string): Promise<void> {
      await remove({ model: this.model, key: hashToken(id) });
    }

    /** Every model's rows of the grant, whichever model's adapter is asked (as memory_adapter.js). */
    async revokeByGrantId(grantId: string): Promise<void> {
      await remove({ grantId, model: { in: OF_A_GRANT } });
    }
  };
}

/** An instance's storage dependencies: its database, the secret box under its secrets key, and its credential cache. */
export function oauthStorageDeps(services: Pick<Services, 'prisma' | 'config'> & ForgetDeps): OAuthStorageDeps {
  return {
    prisma: services.prisma,
    secretBox: secretBoxFor(services.config.secretsKeyFile),
    accessRevoked: (accountIds) => forgetAccounts(services, accountIds),
  };
}

/** The adapter class of one instance. */
export function oauthStorageFor(services: Pick<Services, 'prisma' | 'config'> & ForgetDeps): AdapterConstructor {
  return oauthStorage(oauthStorageDeps(services));
}
