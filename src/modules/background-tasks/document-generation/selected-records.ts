// The records a DOCUMENT_GENERATION task renders, decided when it is created: the listed ones
// (each must be a live record of the collection) or the active records a record-search filter
// matches now (over fields the starter may read), at most MAX_DOCUMENT_RECORDS, oldest first.
import type { RequestContext } from '../../../app/context.ts';
import { ValidationError, type ErrorDetail } from '../../../app/errors.ts';
import { type CollectionAccess, findCollectionMembers, findRecordPage, normalizeFilters } from '../../../kernel/index.ts';
import { MAX_DOCUMENT_RECORDS, type DocumentGenerationInput } from './document-generation.input.ts';

/** The listed records that are live members of the collection. */
async function membersOf(ctx: RequestContext, access: CollectionAccess, simplyIds: readonly string[]): Promise<Set<string>> {
  const members = await findCollectionMembers(ctx.services.pool, access.schema.teamId, access.collection.id, simplyIds);
  return new Set(members.filter((m) => !m.deleted && m.state !== 'DELETED').map((m) => m.simplyId));
}

function filterDetails(details: readonly ErrorDetail[]): ErrorDetail[] {
  return details.map((d) => ({ ...d, field: `queueData.requestFilter${(d.field ?? '').replace(/^filters/, '')}` }));
}

export async function selectRecords(ctx: RequestContext, access: CollectionAccess, q: DocumentGenerationInput): Promise<string[]> {
  if (q.dataRecordSimplyIds) {
    const members = await membersOf(ctx, access, q.dataRecordSimplyIds);
    const details = q.dataRecordSimplyIds.flatMap((id, i) => (members.has(id) ? [] : [{ field: `queueData.dataRecordSimplyIds[${i}]`, message: `${id} is not a record of collection ${access.collection.simplyId}` }]));
    if (details.length > 0) throw new ValidationError('Some listed records are not records of the collection', details);
    return q.dataRecordSimplyIds;
  }
  const normalized = normalizeFilters(access.readable, q.requestFilter);
  if (!normalized.ok) throw new ValidationError('Invalid requestFilter', filterDetails(normalized.details));
  const { rows, total } = await findRecordPage(ctx.services.pool, {
    teamId: access.schema.teamId,
    collectionId: access.collection.id,
    filters: normalized.filters,
    fieldsById: new Map(access.readable.map((f) => [f.dataFieldSimplyId, f])),
    sort: [{ key: 'createdAt', descending: false }],
    limit: MAX_DOCUMENT_RECORDS + 1,
    offset: 0,
  });
  if (rows.length === 0) throw new ValidationError('The requestFilter matches no records', [{ field: 'queueData.requestFilter', message: 'matches no records of the collection' }]);
  if (rows.length > MAX_DOCUMENT_RECORDS || total > MAX_DOCUMENT_RECORDS) {
    throw new ValidationError(`The requestFilter matches ${total} records; one task renders at most ${MAX_DOCUMENT_RECORDS}`, [
      { field: 'queueData.requestFilter', message: `matches ${total} records (at most ${MAX_DOCUMENT_RECORDS}): narrow it, or split the work into several tasks` },
    ]);
  }
  return rows.map((r) => r.simplyId);
}
