// The assistant's read tools. Each runs through the data kernel with the member's context as it is
// when the tool runs (their role's data and field permissions, their token's scopes), narrowed by
// the team's knowledge sources: the assistant never sees what the member could not read through
// the API. Results for the model carry simplyIds and readable values only; what a member sees of a
// call (events, the reply's tool calls) is the tool's name and a fixed summary.
import { z } from 'zod';
import type { RequestContext } from '../../app/context.ts';
import { accessTo, canReadCollection, getRecord, searchRecords, type CollectionDefinition, type RecordView } from '../../kernel/index.ts';
import type { KnowledgeSources } from './settings.service.ts';
import { requireSchemaRead } from '../team-schema/index.ts';
import { listViews } from '../views/index.ts';
import { allowedCollection, text, type AssistantTool, type SourceReference } from './tool-types.ts';

const SEARCH_LIMIT = 10;
/** collections one search across the team looks in: search_team_records is relevance-oriented, not exhaustive */
const SEARCH_COLLECTIONS = 10;

function visibleCollections(ctx: RequestContext, all: Iterable<CollectionDefinition>, sources: KnowledgeSources): CollectionDefinition[] {
  const selected = sources.mode === 'SELECTED' ? new Set(sources.collections) : null;
  return [...all].filter((c) => !c.isArchived && canReadCollection(ctx.principal, c) && (!selected || selected.has(c.simplyId)));
}


const recordOf = (r: RecordView) => ({ dataRecordSimplyId: r.dataRecordSimplyId, dataCollectionSimplyId: r.dataCollectionSimplyId, name: r.name, fields: r.fields, updatedAt: r.updatedAt });
const recordSource = (r: RecordView): SourceReference => ({ kind: 'DATA_RECORD', simplyId: r.dataRecordSimplyId, label: r.name });

const filters = z
  .array(z.object({ field: z.string(), operator: z.string(), value: z.unknown().optional() }))
  .max(25)
  .optional()
  .describe('conditions every record must meet: { field: a field id, operator: eq, ne, contains, gt, gte, lt, lte, in, … }');

const listCollections: AssistantTool = {
  name: 'list_collections',
  description: "The team's collections the member may read, with their fields (ids, column names, titles, data types).",
  input: z.object({}),
  level: 'VIEW',
  async run(ctx, _input, { sources }) {
    // the collections and their fields are schema: a token must carry schema:read, as for the API's reads
    requireSchemaRead(ctx.principal);
    const schema = await ctx.services.schemas.get(ctx.principal.team!.id);
    const collections = visibleCollections(ctx, schema.collectionsById.values(), sources);
    return {
      result: collections.map((c) => ({
        dataCollectionSimplyId: c.simplyId,
        name: text(c.name),
        fields: accessTo(ctx.principal, schema, c).readable.map((f) => ({ dataFieldSimplyId: f.dataFieldSimplyId, columnName: f.columnName, title: text(f.title), dataType: f.dataType })),
      })),
      summary: `Listed ${collections.length} collections`,
      sources: collections.map((c) => ({ kind: 'DATA_COLLECTION' as const, simplyId: c.simplyId, label: text(c.name) })),
    };
  },
};

const countRecords: AssistantTool = {
  name: 'count_data_records',
  description: 'The exact number of records in one collection, optionally only those whose name contains the query and that meet every filter.',
  input: z.object({ dataCollectionSimplyId: z.string(), query: z.string().max(128).optional(), filters }),
  level: 'VIEW',
  async run(ctx, input: { dataCollectionSimplyId: string; query?: string; filters?: unknown }, { sources }) {
    allowedCollection(sources, input.dataCollectionSimplyId);
    const page = await searchRecords(ctx, { dataCollectionSimplyId: input.dataCollectionSimplyId, query: input.query, filters: input.filters, limit: 1 });
    return {
      result: { dataCollectionSimplyId: input.dataCollectionSimplyId, count: page.pagination.total, exact: true },
      summary: `Counted ${page.pagination.total} records`,
      sources: [{ kind: 'DATA_COLLECTION', simplyId: input.dataCollectionSimplyId, label: input.dataCollectionSimplyId }],
    };
  },
};

const searchTeamRecords: AssistantTool = {
  name: 'search_team_records',
  description:
    'Records whose name contains the query, in one collection or across the collections the member may read (at most 10 per call). Relevance-oriented and NOT exhaustive: use count_data_records for totals.',
  input: z.object({ query: z.string().min(1).max(128), dataCollectionSimplyId: z.string().optional(), filters }),
  level: 'VIEW',
  async run(ctx, input: { query: string; dataCollectionSimplyId?: string; filters?: unknown }, { sources }) {
    const schema = await ctx.services.schemas.get(ctx.principal.team!.id);
    let targets: string[];
    if (input.dataCollectionSimplyId) {
      allowedCollection(sources, input.dataCollectionSimplyId);
      targets = [input.dataCollectionSimplyId];
    } else {
      targets = visibleCollections(ctx, schema.collectionsById.values(), sources).filter((c) => c.type !== 'SMART').slice(0, SEARCH_COLLECTIONS).map((c) => c.simplyId);
    }
    const found: RecordView[] = [];
    for (const collection of targets) {
      if (found.length >= SEARCH_LIMIT) break;
      const page = await searchRecords(ctx, { dataCollectionSimplyId: collection, query: input.query, filters: collection === input.dataCollectionSimplyId ? input.filters : undefined, limit: SEARCH_LIMIT - found.length, sort: '-updatedAt' });
      found.push(...page.nodes);
    }
    return { result: { records: found.map(recordOf), exhaustive: false }, summary: `Found ${found.length} records`, sources: found.map(recordSource) };
  },
};

const getDataRecord: AssistantTool = {
  name: 'get_data_record',
  description: 'One record by its id, with the fields the member may read.',
  input: z.object({ dataRecordSimplyId: z.string() }),
  level: 'VIEW',
  async run(ctx, input: { dataRecordSimplyId: string }, { sources }) {
    const record = await getRecord(ctx, input.dataRecordSimplyId);
    allowedCollection(sources, record.dataCollectionSimplyId);
    return { result: recordOf(record), summary: 'Read 1 record', sources: [recordSource(record)] };
  },
};

const VIEW_LIMIT = 50;

const listDataViews: AssistantTool = {
  name: 'list_data_views',
  description: 'The saved data views the member may read (name, type, collection), optionally of one collection: point the member to one instead of listing records yourself.',
  input: z.object({ dataCollectionSimplyId: z.string().optional() }),
  level: 'VIEW',
  async run(ctx, input: { dataCollectionSimplyId?: string }, { sources }) {
    if (input.dataCollectionSimplyId) allowedCollection(sources, input.dataCollectionSimplyId);
    const page = await listViews(ctx, { dataCollectionSimplyId: input.dataCollectionSimplyId ?? null, limit: VIEW_LIMIT });
    const chosen = sources.views.length > 0 ? new Set(sources.views) : null;
    const views = page.nodes.filter(({ row, dataCollectionSimplyId }) => (!chosen || chosen.has(row.simplyId)) && (sources.mode !== 'SELECTED' || sources.collections.includes(dataCollectionSimplyId)));
    return {
      result: views.map(({ row, dataCollectionSimplyId }) => ({ dataViewSimplyId: row.simplyId, name: text(row.name), viewType: row.viewType, dataCollectionSimplyId })),
      summary: `Listed ${views.length} data views`,
      sources: views.map(({ row }) => ({ kind: 'DATA_VIEW' as const, simplyId: row.simplyId, label: text(row.name) })),
    };
  },
};

export const READ_TOOLS: readonly AssistantTool[] = [listCollections, listDataViews, countRecords, searchTeamRecords, getDataRecord];
