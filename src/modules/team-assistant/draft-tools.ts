// Draft tools: the assistant never writes. A draft checks the change as the write would (the
// member's edit permission on the collection and each field, the values against their types) and
// stores it as a proposal with its before/after diff and the versions of the records it touches;
// the member's approval executes exactly that (proposals.service.ts). A draft made for a model's
// call is found again by the call's id, so a run resumed after a crash never drafts twice.
import { z } from 'zod';
import type { RequestContext } from '../../app/context.ts';
import { ValidationError } from '../../app/errors.ts';
import { collectionFor, decodeRecordFields, getRecord, prepareFields, type CollectionAccess, type RecordView } from '../../kernel/index.ts';
import { assistantProposalId } from './team-assistant.ids.ts';
import { allowedCollection, text, type AssistantTool, type ToolOutcome, type ToolUse } from './tool-types.ts';

/** how long a proposal waits for the member's decision */
export const PROPOSAL_TTL_MINUTES = 60;
export const MAX_BULK_RECORDS = 100;

const fields = z.record(z.string(), z.unknown()).describe('values keyed by field id (dataFieldSimplyId), as list_collections names them');

export interface DiffEntry {
  dataRecordSimplyId: string | null;
  dataFieldSimplyId: string;
  field: string;
  before: unknown;
  after: unknown;
}

interface Draft {
  tool: string;
  arguments: Record<string, unknown>;
  diff: DiffEntry[];
  affected: { kind: 'DATA_RECORD' | 'DATA_COLLECTION'; simplyId: string; label: string }[];
  riskLevel: 'LOW' | 'MEDIUM' | 'HIGH';
  permissionSummary: string;
  validationSummary: string;
  /** record simplyId → updatedAt (ISO) as drafted; none for a create */
  versions: Record<string, string>;
}

/** The fields a change sets, checked as the write will check them; throws its 400 or 403. */
function checked(access: CollectionAccess, values: unknown, mode: 'create' | 'update') {
  const prepared = prepareFields(access, values, mode);
  if (prepared.error) throw prepared.error;
  const ids = Object.keys(prepared.result.values);
  if (ids.length === 0) throw new ValidationError('The change names no field of the collection', [{ field: 'fields', message: 'names no field of the collection' }]);
  const changed = access.fields.filter((f) => ids.includes(f.dataFieldSimplyId));
  return { changed, after: decodeRecordFields(changed, prepared.result.values) };
}

function diffOf(record: RecordView | null, access: CollectionAccess, values: unknown, mode: 'create' | 'update'): DiffEntry[] {
  const { changed, after } = checked(access, values, mode);
  const before = record?.fields ?? {};
  return changed.map((f) => ({
    dataRecordSimplyId: record?.dataRecordSimplyId ?? null,
    dataFieldSimplyId: f.dataFieldSimplyId,
    field: text(f.title) || f.columnName,
    before: record ? (before[f.dataFieldSimplyId] ?? null) : null,
    after: after[f.dataFieldSimplyId] ?? null,
  }));
}

async function propose(ctx: RequestContext, use: ToolUse, draft: Draft): Promise<ToolOutcome> {
  const team = ctx.principal.team!;
  const key = { teamId_runId_toolCallId: { teamId: team.id, runId: use.runId, toolCallId: use.toolCallId } };
  const proposal = await ctx.services.prisma.assistantProposal.upsert({
    where: key,
    update: {},
    create: {
      simplyId: assistantProposalId.create(),
      teamId: team.id,
      userId: use.userId,
      runId: use.runId,
      toolCallId: use.toolCallId,
      tool: draft.tool,
      arguments: draft.arguments as never,
      diff: draft.diff as never,
      affected: draft.affected as never,
      riskLevel: draft.riskLevel,
      permissionSummary: draft.permissionSummary,
      validationSummary: draft.validationSummary,
      // the versions drafted against: approval writes only if every record is still at its version
      fingerprint: JSON.stringify(draft.versions),
      expiresAt: new Date(Date.now() + PROPOSAL_TTL_MINUTES * 60_000),
    },
  });
  return {
    result: { proposalSimplyId: proposal.simplyId, status: 'DRAFT', riskLevel: draft.riskLevel, changes: draft.diff.length, note: 'Nothing is changed until the member approves this proposal.' },
    summary: `Drafted a proposal (${draft.riskLevel} risk, ${draft.diff.length} change${draft.diff.length === 1 ? '' : 's'})`,
    sources: draft.affected,
    proposalSimplyId: proposal.simplyId,
  };
}

const draftCreate: AssistantTool = {
  name: 'draft_create_data_record',
  description: 'Drafts a new record for the member to approve (nothing is created until they do).',
  input: z.object({ dataCollectionSimplyId: z.string(), fields }),
  level: 'EDIT',
  async run(ctx, input: { dataCollectionSimplyId: string; fields: Record<string, unknown> }, use) {
    allowedCollection(use.sources, input.dataCollectionSimplyId);
    const access = await collectionFor(ctx, input.dataCollectionSimplyId, 'EDIT');
    return propose(ctx, use, {
      tool: 'draft_create_data_record',
      arguments: input,
      diff: diffOf(null, access, input.fields, 'create'),
      affected: [{ kind: 'DATA_COLLECTION', simplyId: access.collection.simplyId, label: text(access.collection.name) }],
      riskLevel: 'LOW',
      permissionSummary: 'You may create records in this collection and set these fields.',
      validationSummary: 'The values are valid for their fields.',
      versions: {},
    });
  },
};

/** The records to update, each checked for reading and editing; their diff and versions. */
async function updates(ctx: RequestContext, use: ToolUse, ids: readonly string[], values: Record<string, unknown>) {
  const diff: DiffEntry[] = [];
  const affected: Draft['affected'] = [];
  const versions: Record<string, string> = {};
  for (const id of new Set(ids)) {
    const record = await getRecord(ctx, id);
    allowedCollection(use.sources, record.dataCollectionSimplyId);
    const access = await collectionFor(ctx, record.dataCollectionSimplyId, 'EDIT');
    diff.push(...diffOf(record, access, values, 'update'));
    affected.push({ kind: 'DATA_RECORD', simplyId: record.dataRecordSimplyId, label: record.name });
    versions[record.dataRecordSimplyId] = record.updatedAt;
  }
  return { diff, affected, versions };
}

const draftUpdate: AssistantTool = {
  name: 'draft_update_data_record',
  description: 'Drafts a change to some fields of one record for the member to approve (fields not given keep their values).',
  input: z.object({ dataRecordSimplyId: z.string(), fields }),
  level: 'EDIT',
  async run(ctx, input: { dataRecordSimplyId: string; fields: Record<string, unknown> }, use) {
    const { diff, affected, versions } = await updates(ctx, use, [input.dataRecordSimplyId], input.fields);
    return propose(ctx, use, {
      tool: 'draft_update_data_record',
      arguments: input,
      diff,
      affected,
      riskLevel: 'MEDIUM',
      permissionSummary: 'You may edit this record and these fields.',
      validationSummary: 'The values are valid for their fields.',
      versions,
    });
  },
};

const draftBulkUpdate: AssistantTool = {
  name: 'draft_bulk_update_data_records',
  description: `Drafts the same field values for several records (at most ${MAX_BULK_RECORDS}) for the member to approve.`,
  input: z.object({ dataRecordSimplyIds: z.array(z.string()).min(1).max(MAX_BULK_RECORDS), fields }),
  level: 'EDIT',
  async run(ctx, input: { dataRecordSimplyIds: string[]; fields: Record<string, unknown> }, use) {
    const { diff, affected, versions } = await updates(ctx, use, input.dataRecordSimplyIds, input.fields);
    return propose(ctx, use, {
      tool: 'draft_bulk_update_data_records',
      arguments: input,
      diff,
      affected,
      riskLevel: 'HIGH',
      permissionSummary: `You may edit these ${affected.length} records and these fields.`,
      validationSummary: 'The values are valid for their fields.',
      versions,
    });
  },
};

export const DRAFT_TOOLS: readonly AssistantTool[] = [draftCreate, draftUpdate, draftBulkUpdate];
