// /v1/data-collections, /v1/create-menu/data-collections → src/data/collections/collection.schema.ts
// (docs/api/data-collections.md). Reads are standard tier; writes privileged (team admin or
// TEAM_SETTINGS edit). PATCH /{id}, PUT …/fields/reorder, POST …/archive are our additions.
import { ValidationError } from '../../src/app/errors.ts';
import { bodyObject, defineRoutes, pageVariables, type RestRequest, respondPage } from '../legacy-route.ts';

const FIELD = `id dataFieldSimplyId title columnName dataType isRequired sortOrder config createdAt updatedAt`;
const SUMMARY = `id dataCollectionSimplyId name singularName pluralName archetype effectiveArchetype type enumDataCollectionTypeId
  fieldCount recordCount parentDataCollectionSimplyId isArchived createdAt updatedAt`;
const DETAIL = `${SUMMARY} dataRecordCalculatedNameFormula filterCriteria fields { ${FIELD} }`;

/** `true` / `false` query parameter, or undefined when absent; anything else is a 400. */
function boolParam(req: RestRequest, name: string): boolean | undefined {
  const raw = req.query.get(name);
  if (raw === null || raw === '') return undefined;
  if (raw !== 'true' && raw !== 'false') throw new ValidationError(`${name} must be true or false`, [{ field: name, message: 'must be true or false' }]);
  return raw === 'true';
}

/** A body that takes exactly these keys (unknown keys are a 400, like GraphQL input objects). */
function bodyWith(req: RestRequest, keys: string[]): Record<string, unknown> {
  const body = bodyObject(req);
  const unknown = Object.keys(body).filter((k) => !keys.includes(k));
  if (unknown.length > 0) {
    throw new ValidationError(`Unknown body field(s): ${unknown.join(', ')}`, unknown.map((k) => ({ field: k, message: `is not a field of this body (allowed: ${keys.join(', ')})` })));
  }
  return body;
}

const collection = (req: RestRequest) => req.params.dataCollectionSimplyId;

export const dataCollectionRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/v1/data-collections',
    summary: 'Collections the caller’s data role can read (summaries); ?includeArchived=true adds archived ones',
    operation: `query DataCollections($limit: Int, $offset: Int, $includeArchived: Boolean) {
      dataCollections(limit: $limit, offset: $offset, includeArchived: $includeArchived) { nodes { ${SUMMARY} } pagination { total limit offset hasMore } } }`,
    variables: (req) => ({ ...pageVariables(req), includeArchived: boolParam(req, 'includeArchived') }),
    respond: respondPage,
  },
  {
    method: 'POST',
    path: '/v1/data-collections',
    summary: 'Create a collection with its fields (privileged; team admin or TEAM_SETTINGS edit)',
    operation: `mutation CreateDataCollection($input: CreateDataCollectionInput!) { createDataCollection(input: $input) { ${DETAIL} } }`,
    body: 'required',
    variables: (req) => ({ input: bodyObject(req) }),
    status: 201,
  },
  {
    method: 'GET',
    path: '/v1/data-collections/{dataCollectionSimplyId}',
    summary: 'A collection with the fields the caller can read',
    operation: `query DataCollection($id: String!) { dataCollection(dataCollectionSimplyId: $id) { ${DETAIL} } }`,
    variables: (req) => ({ id: collection(req) }),
  },
  {
    method: 'PATCH',
    path: '/v1/data-collections/{dataCollectionSimplyId}',
    summary: 'Change archetype, display-name formula, SMART criteria or parent (privileged)',
    operation: `mutation UpdateDataCollection($id: String!, $input: UpdateDataCollectionInput!) { updateDataCollection(dataCollectionSimplyId: $id, input: $input) { ${DETAIL} } }`,
    body: 'required',
    variables: (req) => ({ id: collection(req), input: bodyObject(req) }),
  },
  {
    method: 'POST',
    path: '/v1/data-collections/{dataCollectionSimplyId}/rename',
    summary: 'Rename a collection: name, singularName, pluralName (privileged)',
    operation: `mutation RenameDataCollection($id: String!, $input: RenameDataCollectionInput!) { renameDataCollection(dataCollectionSimplyId: $id, input: $input) { ${DETAIL} } }`,
    body: 'required',
    variables: (req) => ({ id: collection(req), input: bodyObject(req) }),
  },
  {
    method: 'POST',
    path: '/v1/data-collections/{dataCollectionSimplyId}/archive',
    summary: 'Archive or restore a collection: { isArchived } (privileged)',
    operation: `mutation ArchiveDataCollection($id: String!, $isArchived: Boolean!) { archiveDataCollection(dataCollectionSimplyId: $id, isArchived: $isArchived) { ${DETAIL} } }`,
    body: 'required',
    variables: (req) => ({ id: collection(req), isArchived: bodyWith(req, ['isArchived']).isArchived }),
  },
  {
    method: 'POST',
    path: '/v1/data-collections/{dataCollectionSimplyId}/recalculate-record-names',
    summary: 'Recompute the display names of the collection’s records (privileged)',
    operation: `mutation RecalculateDataRecordNames($id: String!) { recalculateDataRecordNames(dataCollectionSimplyId: $id) }`,
    body: 'optional',
    variables: (req) => {
      bodyWith(req, []);
      return { id: collection(req) };
    },
    respond: (updated: number, req) => ({ data: { id: collection(req), updatedRecordCount: updated } }),
  },
  {
    method: 'POST',
    path: '/v1/data-collections/{dataCollectionSimplyId}/resync-smart-membership',
    summary: 'Rebuild a SMART collection’s memberships from its criteria (privileged)',
    operation: `mutation ResyncSmartMembership($id: String!) { resyncSmartMembership(dataCollectionSimplyId: $id) { ${SUMMARY} } }`,
    body: 'optional',
    variables: (req) => {
      bodyWith(req, []);
      return { id: collection(req) };
    },
  },
  {
    method: 'GET',
    path: '/v1/data-collections/{dataCollectionSimplyId}/fields',
    summary: 'Field definitions the caller can read, in sortOrder',
    operation: `query DataCollectionFields($id: String!) { dataCollectionFields(dataCollectionSimplyId: $id) { ${FIELD} } }`,
    variables: (req) => ({ id: collection(req) }),
  },
  {
    method: 'POST',
    path: '/v1/data-collections/{dataCollectionSimplyId}/fields',
    summary: 'Add a field (privileged)',
    operation: `mutation AddDataField($id: String!, $input: DataFieldInput!) { addDataField(dataCollectionSimplyId: $id, input: $input) { ${FIELD} } }`,
    body: 'required',
    variables: (req) => ({ id: collection(req), input: bodyObject(req) }),
    status: 201,
  },
  {
    method: 'PUT',
    path: '/v1/data-collections/{dataCollectionSimplyId}/fields/reorder',
    summary: 'Reorder fields: { orderedFieldSimplyIds } first, the others after (privileged)',
    operation: `mutation ReorderDataFields($id: String!, $ids: [String!]!) { reorderDataFields(dataCollectionSimplyId: $id, orderedFieldSimplyIds: $ids) { ${FIELD} } }`,
    body: 'required',
    variables: (req) => ({ id: collection(req), ids: bodyWith(req, ['orderedFieldSimplyIds']).orderedFieldSimplyIds }),
  },
  {
    method: 'GET',
    path: '/v1/data-collections/{dataCollectionSimplyId}/fields/{dataFieldSimplyId}',
    summary: 'One field definition (404 when the caller’s role hides it)',
    operation: `query DataCollectionField($id: String!, $field: String!) { dataCollectionField(dataCollectionSimplyId: $id, dataFieldSimplyId: $field) { ${FIELD} } }`,
    variables: (req) => ({ id: collection(req), field: req.params.dataFieldSimplyId }),
  },
  {
    method: 'PATCH',
    path: '/v1/data-collections/{dataCollectionSimplyId}/fields/{dataFieldSimplyId}',
    summary: 'Change a field: title, isRequired, config, columnName, sortOrder (dataType is immutable) (privileged)',
    operation: `mutation UpdateDataField($id: String!, $field: String!, $input: UpdateDataFieldInput!) {
      updateDataField(dataCollectionSimplyId: $id, dataFieldSimplyId: $field, input: $input) { ${FIELD} } }`,
    body: 'required',
    variables: (req) => ({ id: collection(req), field: req.params.dataFieldSimplyId, input: bodyObject(req) }),
  },
  {
    method: 'DELETE',
    path: '/v1/data-collections/{dataCollectionSimplyId}/fields/{dataFieldSimplyId}',
    summary: 'Remove a field (409 while the display-name formula or SMART criteria use it) (privileged)',
    operation: `mutation RemoveDataField($id: String!, $field: String!) { removeDataField(dataCollectionSimplyId: $id, dataFieldSimplyId: $field) }`,
    variables: (req) => ({ id: collection(req), field: req.params.dataFieldSimplyId }),
    respond: (_removed, req) => ({ data: { id: req.params.dataFieldSimplyId, deleted: true } }),
  },
  {
    method: 'GET',
    path: '/v1/create-menu/data-collections/{dataCollectionSimplyId}',
    summary: 'Create-form layout: the fields the caller can fill in, canCreate, reasons, blockingFields',
    operation: `query CreateMenuDataCollection($id: String!) { createMenuDataCollection(dataCollectionSimplyId: $id) {
      collection { ${SUMMARY} } fields { ${FIELD} } canCreate reasons blockingFields { dataFieldSimplyId title access } } }`,
    variables: (req) => ({ id: collection(req) }),
  },
]);
