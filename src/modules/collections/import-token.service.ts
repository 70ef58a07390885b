// CSV import tokens (privileged; docs/api/data-collections.md "Import tokens"): an admin screen
// asks for one for a collection, the member who asked then starts one BULK_DATA_IMPORT task with
// it (queueData.importToken). Bound to the collection and that member, short-lived, used once;
// only its SHA-256 is stored.
import type { RequestContext } from '../../app/context.ts';
import { IdpRequiredError, ValidationError } from '../../app/errors.ts';
import { assertDataSimplyId, randomSecret } from '../../app/ids.ts';
import { requireTeam } from '../../app/require-team.ts';
import { parseInput } from '../../app/validate.ts';
import { hashToken } from '../../app/auth/tokens.ts';
import { IMPORT_TOKEN_PREFIX, importTokenInput } from './collection-admin.input.ts';
import { adminCollection } from './collections.service.ts';

export interface IssuedImportToken {
  importToken: string;
  dataCollectionSimplyId: string;
  expiresAt: Date;
}

/** POST …/import-token: a signed-in member only (imports are run by people, not keys). */
export async function issueImportToken(ctx: RequestContext, simplyId: string, raw: unknown): Promise<IssuedImportToken> {
  const team = requireTeam(ctx);
  if (ctx.principal.kind !== 'USER' || ctx.principal.userId === null) {
    throw new IdpRequiredError('An import token is for the signed-in member who runs the import: API keys cannot start imports');
  }
  assertDataSimplyId(simplyId, 'dataCollectionSimplyId', 'collection');
  const input = parseInput(importTokenInput, raw ?? {}, 'Invalid import token request');
  const collection = await adminCollection(ctx, simplyId);
  if (collection.type === 'SMART') {
    throw new ValidationError(`Collection ${simplyId} is SMART`, [{ field: 'dataCollectionSimplyId', message: 'is a SMART collection: import into its source collection' }]);
  }
  if (collection.isArchived) throw new ValidationError(`Collection ${simplyId} is archived`, [{ field: 'dataCollectionSimplyId', message: 'is archived: restore it first' }]);
  const token = IMPORT_TOKEN_PREFIX + randomSecret();
  const expiresAt = new Date(Date.now() + input.expiresInMinutes * 60_000);
  const prisma = ctx.services.prisma;
  // tokens of the team that can no longer be used go as new ones are made
  await prisma.dataCollectionImportToken.deleteMany({ where: { teamId: team.id, OR: [{ expiresAt: { lt: new Date() } }, { usedAt: { not: null } }] } });
  await prisma.dataCollectionImportToken.create({ data: { teamId: team.id, collectionId: collection.id, userId: ctx.principal.userId, tokenHash: hashToken(token), expiresAt } });
  return { importToken: token, dataCollectionSimplyId: collection.simplyId, expiresAt };
}

/**
 * The import flow's side: uses the token for `dataCollectionSimplyId` and the calling member, once.
 * Anything else (unknown, expired, used, another collection or member, another team) is the same
 * 400 naming `field`, so a token reveals nothing about why it does not fit.
 */
export async function useImportToken(ctx: RequestContext, token: string, dataCollectionSimplyId: string, field = 'queueData.importToken'): Promise<void> {
  const team = requireTeam(ctx);
  const refuse = () => new ValidationError('The import token cannot be used', [{ field, message: 'is unknown, expired, already used, or not for this collection and member' }]);
  if (!token.startsWith(IMPORT_TOKEN_PREFIX) || token.length > 200 || ctx.principal.userId === null) throw refuse();
  const schema = await ctx.services.schemas.get(team.id);
  const collection = schema.collectionsBySimplyId.get(dataCollectionSimplyId);
  if (!collection) throw refuse();
  const used = await ctx.services.prisma.dataCollectionImportToken.updateMany({
    where: { tokenHash: hashToken(token), teamId: team.id, collectionId: collection.id, userId: ctx.principal.userId, usedAt: null, expiresAt: { gt: new Date() } },
    data: { usedAt: new Date() },
  });
  if (used.count !== 1) throw refuse();
}
