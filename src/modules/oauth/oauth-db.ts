// What the oauth storage needs of the database: the OAuthState delegate of a Prisma client, so a
// transaction's client serves as well as the instance's.
import type { PrismaClient } from '../../generated/prisma/client.ts';

export type OAuthDb = Pick<PrismaClient, 'oAuthState'>;

/** Rows oidc-provider may still see: an expired object is gone for it, whether pruned yet or not. */
export const live = () => ({ OR: [{ expiresAt: null }, { expiresAt: { gt: new Date() } }] });
