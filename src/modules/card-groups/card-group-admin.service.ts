// Card-group administration (privileged; docs/api/data-collections.md "Card groups"): list, create,
// replace and delete the card groups of a collection. A card group describes how screens show a
// record, not the schema: it records no schema version, but it is written under the team's schema
// lock (the one schema changes take), so it is checked against the schema as it is at that moment
// and a field removed alongside is never half-referenced. The same lock serializes the writes of
// one team's groups, so positions stay 0…n-1 under concurrent creates and moves.
import type { RequestContext } from '../../app/context.ts';
import { type ErrorDetail, NotFoundError, ValidationError } from '../../app/errors.ts';
import { assertDataSimplyId } from '../../app/ids.ts';
import { requireTeam } from '../../app/require-team.ts';
import { runTransaction, type Tx } from '../../app/transaction.ts';
import { parseInput } from '../../app/validate.ts';
import { advisoryLock } from '../../db/advisory-locks.ts';
import type { DataCardGroup } from '../../generated/prisma/client.ts';
import { type CollectionDefinition, findCollection, loadSchemaTx, type TeamSchema, throwIfDetails } from '../../kernel/index.ts';
import { checkCards, resolveCards, type ResolvedCard } from './card-group-config.ts';
import { CardGroupLimitError } from './card-groups.errors.ts';
import { dataCardGroupId } from './card-groups.ids.ts';
import { type CardGroupInput, cardGroupInput, MAX_CARD_GROUPS_PER_COLLECTION } from './card-groups.input.ts';

/** A card group as administration sees it: its row, its collection, its cards resolved (with their problems). */
export interface AdminCardGroup {
  row: DataCardGroup;
  collection: CollectionDefinition;
  cards: ResolvedCard[];
}

const INVALID = 'Invalid card group';
const ORDER = [{ position: 'asc' as const }, { id: 'asc' as const }];

export const adminCardGroup = (schema: TeamSchema, collection: CollectionDefinition, row: DataCardGroup): AdminCardGroup => ({
  row,
  collection,
  cards: resolveCards(schema, collection, row.cards),
});

/** Runs `work` under the team's schema lock with the schema as of this transaction. */
function underSchemaLock<T>(ctx: RequestContext, work: (tx: Tx, schema: TeamSchema, teamId: bigint) => Promise<T>): Promise<T> {
  const team = requireTeam(ctx);
  return runTransaction(ctx.services.prisma, async (tx) => {
    const lock = advisoryLock('schemaVersions', String(team.id));
    await tx.$executeRawUnsafe(lock.text, ...lock.values);
    return work(tx, await loadSchemaTx(tx, team.id), team.id);
  });
}

/** Records live in STANDARD and CUSTOM_LIST collections; a SMART collection's are its source's, and show the source's groups. */
function assertTakesCardGroups(collection: CollectionDefinition): void {
  if (collection.type === 'SMART') {
    throw new ValidationError(`Collection ${collection.simplyId} is SMART: its records belong to its source collection; configure card groups there`, [
      { field: 'dataCollectionSimplyId', message: 'is a SMART collection' },
    ]);
  }
}

/** The name and cards of `input`, checked against the collection (400 naming each card's field otherwise). */
function groupData(schema: TeamSchema, collection: CollectionDefinition, input: CardGroupInput) {
  const details: ErrorDetail[] = [];
  const cards = checkCards(schema, collection, input.cards, details);
  throwIfDetails(INVALID, details);
  return { name: input.name as never, cards: cards as never };
}

/**
 * Puts `movingId` at `position` (beyond the end: last) among the collection's groups and numbers
 * them 0…n-1, writing only the rows whose position changes.
 */
async function placeAt(tx: Tx, teamId: bigint, collectionId: bigint, movingId: bigint | null, position: number | undefined): Promise<void> {
  const rows = await tx.dataCardGroup.findMany({ where: { teamId, collectionId }, orderBy: ORDER, select: { id: true, position: true } });
  const order = rows.filter((r) => r.id !== movingId);
  const moving = rows.find((r) => r.id === movingId);
  if (moving) order.splice(Math.min(position ?? order.length, order.length), 0, moving);
  for (const [index, row] of order.entries()) {
    if (row.position !== index) await tx.dataCardGroup.update({ where: { id: row.id, teamId }, data: { position: index } });
  }
}

async function groupOf(tx: Tx, teamId: bigint, collection: CollectionDefinition, simplyId: string): Promise<DataCardGroup> {
  const row = await tx.dataCardGroup.findUnique({ where: { teamId_simplyId: { teamId, simplyId } } });
  if (!row || row.collectionId !== collection.id) throw new NotFoundError('Data card group', simplyId);
  return row;
}

/** GET /v1/data-collections/{id}/card-groups: every group of the collection, in position order. */
export async function listCollectionCardGroups(ctx: RequestContext, collectionSimplyId: string): Promise<AdminCardGroup[]> {
  const team = requireTeam(ctx);
  const schema = await ctx.services.schemas.get(team.id);
  const collection = findCollection(schema, collectionSimplyId);
  const rows = await ctx.services.prisma.dataCardGroup.findMany({ where: { teamId: team.id, collectionId: collection.id }, orderBy: ORDER });
  return rows.map((row) => adminCardGroup(schema, collection, row));
}

/** POST /v1/data-collections/{id}/card-groups: a new group, at `position` or last. */
export async function createCardGroup(ctx: RequestContext, collectionSimplyId: string, raw: unknown): Promise<AdminCardGroup> {
  assertDataSimplyId(collectionSimplyId, 'dataCollectionSimplyId', 'collection');
  const input = parseInput(cardGroupInput, raw, INVALID);
  return underSchemaLock(ctx, async (tx, schema, teamId) => {
    const collection = findCollection(schema, collectionSimplyId);
    assertTakesCardGroups(collection);
    const data = groupData(schema, collection, input);
    const count = await tx.dataCardGroup.count({ where: { teamId, collectionId: collection.id } });
    if (count >= MAX_CARD_GROUPS_PER_COLLECTION) throw new CardGroupLimitError(collection.simplyId);
    const row = await tx.dataCardGroup.create({ data: { ...data, simplyId: dataCardGroupId.create(), teamId, collectionId: collection.id, position: count } });
    if (input.position !== undefined && input.position < count) await placeAt(tx, teamId, collection.id, row.id, input.position);
    return adminCardGroup(schema, collection, await tx.dataCardGroup.findUniqueOrThrow({ where: { id: row.id, teamId } }));
  });
}

/** PUT /v1/data-collections/{id}/card-groups/{groupId}: name and cards replaced; moved when `position` is given. */
export async function replaceCardGroup(ctx: RequestContext, collectionSimplyId: string, groupSimplyId: string, raw: unknown): Promise<AdminCardGroup> {
  assertDataSimplyId(collectionSimplyId, 'dataCollectionSimplyId', 'collection');
  dataCardGroupId.assert(groupSimplyId, 'dataCardGroupSimplyId');
  const input = parseInput(cardGroupInput, raw, INVALID);
  return underSchemaLock(ctx, async (tx, schema, teamId) => {
    const collection = findCollection(schema, collectionSimplyId);
    const row = await groupOf(tx, teamId, collection, groupSimplyId);
    assertTakesCardGroups(collection);
    await tx.dataCardGroup.update({ where: { id: row.id, teamId }, data: groupData(schema, collection, input) });
    if (input.position !== undefined) await placeAt(tx, teamId, collection.id, row.id, input.position);
    return adminCardGroup(schema, collection, await tx.dataCardGroup.findUniqueOrThrow({ where: { id: row.id, teamId } }));
  });
}

/** DELETE /v1/data-collections/{id}/card-groups/{groupId}; the groups after it move up. */
export async function deleteCardGroup(ctx: RequestContext, collectionSimplyId: string, groupSimplyId: string): Promise<boolean> {
  assertDataSimplyId(collectionSimplyId, 'dataCollectionSimplyId', 'collection');
  dataCardGroupId.assert(groupSimplyId, 'dataCardGroupSimplyId');
  return underSchemaLock(ctx, async (tx, schema, teamId) => {
    const collection = findCollection(schema, collectionSimplyId);
    const row = await groupOf(tx, teamId, collection, groupSimplyId);
    await tx.dataCardGroup.delete({ where: { id: row.id, teamId } });
    await placeAt(tx, teamId, collection.id, null, undefined);
    return true;
  });
}
