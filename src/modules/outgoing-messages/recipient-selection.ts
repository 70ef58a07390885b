// Who a message goes to: the records of a collection, narrowed by a data view's saved filters and
// by the message's own filters (the record-search filter language, compiled by the records
// module exactly as a search would be), with an address in an EMAIL_ADDRESS field of the
// collection. Checked against the composer's data permissions when saved; compiled again from the
// stored ids when the message is checked or sent, so a field, view or collection removed since
// then is reported rather than guessed around.
import type pg from 'pg';
import type { RequestContext, Services } from '../../app/context.ts';
import { NotFoundError, ValidationError, type ErrorDetail } from '../../app/errors.ts';
import { type CollectionDefinition, collectionFor, type FieldDefinition, type NormalizedFilter, normalizeFilters } from '../../kernel/index.ts';
import { dataViewId } from '../views/index.ts';
import type { RecipientSelectionInput } from './outgoing-messages.input.ts';

export const EMAIL_FIELD_TYPE = 'EMAIL_ADDRESS';

/** The selection as the message row stores it (internal ids). */
export interface StoredSelection {
  dataCollectionId: bigint | null;
  dataViewId: bigint | null;
  recipientFilter: unknown;
  emailFieldId: bigint | null;
}

export const NO_SELECTION: StoredSelection = { dataCollectionId: null, dataViewId: null, recipientFilter: null, emailFieldId: null };

/** The selection as a reader sees it (simplyIds; null where the thing no longer exists). */
export interface SelectionView {
  dataCollectionSimplyId: string | null;
  dataViewSimplyId: string | null;
  filters: unknown;
  emailFieldSimplyId: string | null;
}

/** A selection ready to run: the collection, its fields, the address field and every filter. */
export interface CompiledSelection {
  collection: CollectionDefinition;
  fields: FieldDefinition[];
  emailField: FieldDefinition | null;
  filters: NormalizedFilter[];
}

export type SelectionProblem = { code: 'RECIPIENTS_MISSING' | 'EMAIL_FIELD_MISSING' | 'RECIPIENTS_INVALID'; message: string };

const prefixed = (details: ErrorDetail[]) => details.map((d) => ({ ...d, field: `recipients.${d.field ?? 'filters'}` }));

/**
 * Checks a selection a composer saves: the collection (its records readable by the caller), the
 * view (one of that collection's), the filters (over fields the caller can read) and the address
 * field (an EMAIL_ADDRESS field the caller can read). Answers the columns to store.
 */
export async function selectionToStore(ctx: RequestContext, input: RecipientSelectionInput): Promise<StoredSelection> {
  const access = await collectionFor(ctx, input.dataCollectionSimplyId, 'READ', 'recipients.dataCollectionSimplyId');
  let viewId: bigint | null = null;
  if (input.dataViewSimplyId != null) {
    dataViewId.assert(input.dataViewSimplyId, 'recipients.dataViewSimplyId');
    const view = await ctx.services.prisma.dataView.findUnique({ where: { teamId_simplyId: { teamId: access.schema.teamId, simplyId: input.dataViewSimplyId } } });
    if (!view) throw new NotFoundError('Data view', input.dataViewSimplyId);
    if (view.collectionId !== access.collection.id) {
      throw new ValidationError('The view belongs to another collection', [{ field: 'recipients.dataViewSimplyId', message: `is a view of another collection, not of ${access.collection.simplyId}` }]);
    }
    viewId = view.id;
  }
  const normalized = normalizeFilters(access.readable, input.filters ?? []);
  if (!normalized.ok) throw new ValidationError('Invalid recipient filters (the record-search filter language; at most 25, AND-ed)', prefixed(normalized.details));
  let emailFieldId: bigint | null = null;
  if (input.emailFieldSimplyId != null) {
    const field = access.readable.find((f) => f.dataFieldSimplyId === input.emailFieldSimplyId);
    if (!field) throw new ValidationError('Unknown email field', [{ field: 'recipients.emailFieldSimplyId', message: `is not a field of collection ${access.collection.simplyId}` }]);
    if (field.dataType !== EMAIL_FIELD_TYPE) {
      throw new ValidationError('The email field must hold email addresses', [{ field: 'recipients.emailFieldSimplyId', message: `is a ${field.dataType} field; an ${EMAIL_FIELD_TYPE} field is needed` }]);
    }
    emailFieldId = field.id;
  }
  const filters = Array.isArray(input.filters) && input.filters.length > 0 ? input.filters : null;
  return { dataCollectionId: access.collection.id, dataViewId: viewId, recipientFilter: filters, emailFieldId };
}

/** The stored selection in simplyIds (null when there is none). */
export async function selectionView(services: Services, teamId: bigint, stored: StoredSelection): Promise<SelectionView | null> {
  if (stored.dataCollectionId === null) return null;
  const schema = await services.schemas.get(teamId);
  const view = stored.dataViewId === null ? null : await services.prisma.dataView.findFirst({ where: { teamId, id: stored.dataViewId }, select: { simplyId: true } });
  return {
    dataCollectionSimplyId: schema.collectionsById.get(stored.dataCollectionId)?.simplyId ?? null,
    dataViewSimplyId: view?.simplyId ?? null,
    filters: stored.recipientFilter ?? [],
    emailFieldSimplyId: stored.emailFieldId === null ? null : (schema.fieldsById.get(stored.emailFieldId)?.dataFieldSimplyId ?? null),
  };
}

/**
 * The stored selection compiled against the team's schema as it is now (every field, whoever
 * reads: sending acts for the team), or why it cannot run. `db` reads the view (inside the
 * sender's transaction when there is one).
 */
export async function compileSelection(
  services: Services,
  db: pg.Pool | pg.PoolClient,
  teamId: bigint,
  stored: StoredSelection,
): Promise<{ ok: true; selection: CompiledSelection } | { ok: false; problem: SelectionProblem }> {
  const fail = (code: SelectionProblem['code'], message: string) => ({ ok: false as const, problem: { code, message } });
  if (stored.dataCollectionId === null) return fail('RECIPIENTS_MISSING', 'No recipients are chosen: set recipients.dataCollectionSimplyId and recipients.emailFieldSimplyId');
  const schema = await services.schemas.get(teamId);
  const collection = schema.collectionsById.get(stored.dataCollectionId);
  if (!collection) return fail('RECIPIENTS_INVALID', 'The recipients\' collection no longer exists: choose recipients again');
  const fields = schema.fieldsOf(collection);
  let emailField: FieldDefinition | null = null;
  if (stored.emailFieldId !== null) {
    emailField = fields.find((f) => f.id === stored.emailFieldId) ?? null;
    if (!emailField || emailField.dataType !== EMAIL_FIELD_TYPE) return fail('RECIPIENTS_INVALID', 'The email field no longer exists in the collection (or no longer holds email addresses): choose it again');
  }
  const filters: NormalizedFilter[] = [];
  if (stored.dataViewId !== null) {
    const { rows } = await db.query<{ collectionId: string; config: { filters?: unknown } | null }>(
      `SELECT "collectionId"::text AS "collectionId", config FROM "DataView" WHERE "teamId" = $1 AND id = $2`,
      [teamId, stored.dataViewId],
    );
    if (!rows[0] || BigInt(rows[0].collectionId) !== collection.id) return fail('RECIPIENTS_INVALID', 'The recipients\' data view no longer exists: choose recipients again');
    const fromView = normalizeFilters(fields, rows[0].config?.filters ?? []);
    if (!fromView.ok) return fail('RECIPIENTS_INVALID', `The data view's filters no longer fit the collection: ${describe(fromView.details)}`);
    filters.push(...fromView.filters);
  }
  const own = normalizeFilters(fields, stored.recipientFilter ?? []);
  if (!own.ok) return fail('RECIPIENTS_INVALID', `The recipient filters no longer fit the collection: ${describe(own.details)}`);
  filters.push(...own.filters);
  return { ok: true, selection: { collection, fields, emailField, filters } };
}

function describe(details: ErrorDetail[]): string {
  return details.map((d) => `${d.field ?? 'filters'}: ${d.message}`).join('; ');
}

export function storedSelectionOf(row: { dataCollectionId: bigint | null; dataViewId: bigint | null; recipientFilter: unknown; emailFieldId: bigint | null }): StoredSelection {
  return { dataCollectionId: row.dataCollectionId, dataViewId: row.dataViewId, recipientFilter: row.recipientFilter, emailFieldId: row.emailFieldId };
}
