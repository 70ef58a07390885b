// The tools of the hosted MCP server, for one caller. Each runs an operation of the API with the
// caller's context (src/app/graphql/operation-runner.ts), so it answers exactly what REST would: the caller's team
// only, their role's data permissions, their token's scopes. A token without `records:write` is
// offered no write tool (and a call to one is refused as an unknown tool); without `records:read`
// or `schema:read`, no tool that needs them. Descriptions name the team's collections and fields
// (when the client lists the tools), so a model can use them without reading any documentation.
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { OauthScope } from '../../app/auth/oauth-scopes.ts';
import { hasScope } from '../../app/auth/principal.ts';
import type { RequestContext } from '../../app/context.ts';
import { OperationRefused, type RunOperation } from '../../app/graphql/operation-runner.ts';

export const MCP_SERVER_INFO = { name: 'svc-platform', version: '1.0.0' };

const COLLECTIONS = `query McpCollections {
  dataCollections(limit: 100) {
    nodes { dataCollectionSimplyId name recordCount fields { dataFieldSimplyId columnName title dataType isRequired } }
    pagination { hasMore }
  }
}`;
const RECORD = 'dataRecordSimplyId dataCollectionSimplyId name fields createdAt updatedAt';
const SEARCH = `query McpSearch($input: DataRecordSearchInput!) {
  searchDataRecords(input: $input) { nodes { ${RECORD} } totalCount pagination { hasMore } }
}`;
const COUNT = `query McpCount($input: DataRecordSearchInput!) { searchDataRecords(input: $input) { totalCount } }`;
const GET = `query McpRecord($id: String!) { dataRecord(dataRecordSimplyId: $id) { ${RECORD} } }`;
const CREATE = `mutation McpCreate($collection: String!, $fields: JSON) {
  createDataRecord(dataCollectionSimplyId: $collection, fields: $fields) { record { ${RECORD} } warnings }
}`;
const UPDATE = `mutation McpUpdate($id: String!, $fields: JSON) {
  updateDataRecord(dataRecordSimplyId: $id, fields: $fields) { record { ${RECORD} } warnings }
}`;

const filters = z
  .array(z.object({ field: z.string().describe('a field id (dataFieldSimplyId)'), operator: z.string().describe('eq, ne, in, contains, startsWith, gt, gte, lt, lte, … (per data type)'), value: z.unknown().optional() }))
  .max(25)
  .optional()
  .describe('conditions, all of which a record must meet (the record-search language of the API)');
const searchInput = {
  dataCollectionSimplyId: z.string().describe('the collection to search (see list_collections)'),
  query: z.string().max(128).optional().describe("text found in the records' display names (case-insensitive)"),
  filters,
};

interface CollectionSummary {
  dataCollectionSimplyId: string;
  name: unknown;
  recordCount: number;
  fields: { dataFieldSimplyId: string; columnName: string; title: unknown; dataType: string; isRequired: boolean }[];
}

/**
 * The MCP server of one request, for the caller of `context`. `describe`: name the team's
 * collections in the descriptions (one read of the collections; done when the tools are listed).
 */
export async function toolsFor(context: RequestContext, run: RunOperation, describe: boolean): Promise<McpServer> {
  const server = new McpServer(MCP_SERVER_INFO, { capabilities: { tools: {} } });
  const can = (scope: OauthScope) => hasScope(context.principal, scope);
  const catalogue = describe && can('schema:read') ? await collectionCatalogue(context, run) : '';

  const tool = async (operation: string, variables: Record<string, unknown>) => {
    try {
      const data = (await run(operation, variables, context)) as Record<string, unknown>;
      return { content: [{ type: 'text' as const, text: JSON.stringify(data) }], structuredContent: data };
    } catch (error) {
      if (!(error instanceof OperationRefused)) throw error;
      return { isError: true, content: [{ type: 'text' as const, text: `${error.code} (${error.status}): ${error.message}` }] };
    }
  };

  if (can('schema:read')) {
    server.registerTool(
      'list_collections',
      { title: 'List collections', description: `The team's collections with their fields (ids, column names, data types) and record counts.${catalogue}`, inputSchema: z.object({}), annotations: { readOnlyHint: true } },
      async () => tool(COLLECTIONS, {}),
    );
  }
  if (can('records:read')) {
    server.registerTool(
      'search_records',
      {
        title: 'Search records',
        description: `Records of one collection whose display name contains the query and that meet every filter, newest first unless sorted; fields are keyed by field id.${catalogue}`,
        inputSchema: z.object({
          ...searchInput,
          sort: z.string().optional().describe('comma list of createdAt, updatedAt, calculatedName or field ids; "-" prefix for descending'),
          limit: z.number().int().min(1).max(100).optional().describe('default 25'),
          offset: z.number().int().min(0).optional(),
        }),
        annotations: { readOnlyHint: true },
      },
      async (input) => tool(SEARCH, { input }),
    );
    server.registerTool(
      'count_records',
      { title: 'Count records', description: 'How many records of one collection match the query and filters (all of them when none are given).', inputSchema: z.object(searchInput), annotations: { readOnlyHint: true } },
      async (input) => tool(COUNT, { input: { ...input, limit: 1 } }),
    );
    server.registerTool(
      'get_record',
      { title: 'Get a record', description: 'One record by its id, with the fields the caller may read.', inputSchema: z.object({ dataRecordSimplyId: z.string() }), annotations: { readOnlyHint: true } },
      async ({ dataRecordSimplyId }) => tool(GET, { id: dataRecordSimplyId }),
    );
  }
  if (can('records:write')) {
    const fields = z.record(z.string(), z.unknown()).describe('values keyed by field id (dataFieldSimplyId), as list_collections names them');
    server.registerTool(
      'create_record',
      { title: 'Create a record', description: `A new record in a collection.${catalogue}`, inputSchema: z.object({ dataCollectionSimplyId: z.string(), fields }) },
      async ({ dataCollectionSimplyId, fields: values }) => tool(CREATE, { collection: dataCollectionSimplyId, fields: values }),
    );
    server.registerTool(
      'update_record',
      { title: 'Update a record', description: 'Changes the given fields of a record; fields not given keep their values.', inputSchema: z.object({ dataRecordSimplyId: z.string(), fields }) },
      async ({ dataRecordSimplyId, fields: values }) => tool(UPDATE, { id: dataRecordSimplyId, fields: values }),
    );
  }
  return server;
}

const MAX_CATALOGUE = 6000;

/** " Collections: People (dcl-…): first_name fld-… PLAIN_TEXT required, …" within a bounded length. */
async function collectionCatalogue(context: RequestContext, run: RunOperation): Promise<string> {
  let page: { nodes: CollectionSummary[] };
  try {
    page = (await run(COLLECTIONS, {}, context)) as { nodes: CollectionSummary[] };
  } catch {
    return '';
  }
  const text = (value: unknown) => (typeof value === 'string' ? value : value && typeof value === 'object' ? String(Object.values(value)[0] ?? '') : '');
  const lines = page.nodes.map(
    (c) => `${text(c.name)} (${c.dataCollectionSimplyId}, ${c.recordCount} records): ${c.fields.map((f) => `${f.columnName} ${f.dataFieldSimplyId} ${f.dataType}${f.isRequired ? ' required' : ''}`).join(', ')}`,
  );
  let out = '\nCollections of this team:';
  for (const line of lines) {
    if (out.length + line.length > MAX_CATALOGUE) return `${out}\n… (list_collections has them all)`;
    out += `\n- ${line}`;
  }
  return out;
}
