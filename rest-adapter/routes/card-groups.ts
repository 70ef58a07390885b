// Card groups → src/modules/card-groups/card-groups.schema.ts: the record routes (standard tier,
// docs/api/data-records.md "Card groups") and their administration under the collection
// (privileged, docs/api/data-collections.md "Card groups"). The bodies are checked here with the
// zod schema the service uses, so both faces refuse the same bodies with the same details.
import { operation } from '../../src/app/graphql/fragments.ts';
import { cardGroupInput } from '../../src/modules/card-groups/card-groups.input.ts';
import { DATA_CARD_GROUP, DATA_RECORD_CARD_GROUP, DATA_RECORD_CARD_GROUP_RENDER } from '../../src/modules/card-groups/card-groups.fragments.ts';
import { defineRoutes, route, type RouteExtension } from '../route.ts';
import { actOn, getOne } from '../route-shapes.ts';

const RECORD = '/v1/data-records/{dataRecordSimplyId}/card-groups';
const COLLECTION = '/v1/data-collections/{dataCollectionSimplyId}/card-groups';
const GROUP = `${COLLECTION}/{dataCardGroupSimplyId}`;
const PRIVILEGED = 'privileged: team admin or TEAM_SETTINGS edit; never session or OAuth tokens';

const ADMIN = 'card-group administration (docs/api/data-collections.md "Card groups"): the record routes render groups configured here';

/** Served routes the documents do not list, each with why it exists (OpenAPI `x-extension`). */
const EXTENSIONS: Record<string, RouteExtension> = {
  [`GET ${COLLECTION}`]: { reason: ADMIN },
  [`POST ${COLLECTION}`]: { reason: ADMIN },
  [`PUT ${GROUP}`]: { reason: ADMIN },
  [`DELETE ${GROUP}`]: { reason: ADMIN },
};

const EXAMPLE = {
  name: { en: 'Overview', de: 'Übersicht' },
  position: 0,
  cards: [
    { kind: 'FIELDS', title: 'Contact', dataFieldSimplyIds: ['fld-AB23-CD45-EF67', 'fld-GH89-JK23-MN45'] },
    { kind: 'TABLE', title: 'Donations', dataFieldSimplyId: 'fld-JK23-MN45-PQ67', columnFieldSimplyIds: ['fld-MN45-PQ67-RS89'], rowLimit: 10 },
  ],
};

export const cardGroupRoutes = defineRoutes(
  [
    getOne({
      path: RECORD,
      summary: "List a record's card groups",
      description: "The card groups of the record's collection in order, each with the cards the caller will see (no values); needs what reading the record needs",
      name: 'DataRecordCardGroups',
      select: DATA_RECORD_CARD_GROUP,
    }),
    getOne({
      path: `${RECORD}/{dataCardGroupSimplyId}/render`,
      summary: 'Render a card group of a record',
      description:
        "One card group with the record's values: FIELDS cards (label and value), TABLE cards (related records, columns, multiDataRecordContext with creationAvailability and, for REVERSE SINGLE_DATA_RECORD relationships, the prePopulate field settings); only fields the caller may read",
      name: 'DataRecordCardGroupRender',
      select: DATA_RECORD_CARD_GROUP_RENDER,
    }),
    getOne({
      path: COLLECTION,
      summary: "List a collection's card groups",
      description: `Every card group of the collection in position order, each card with its problems (fields removed since, relationships changed, targets gone) (${PRIVILEGED})`,
      name: 'DataCollectionCardGroups',
      select: DATA_CARD_GROUP,
    }),
    route({
      method: 'POST',
      path: COLLECTION,
      summary: 'Create a card group',
      description: `Add a card group: { name, position? (0-based; default last), cards: [FIELDS { title?, dataFieldSimplyIds } | TABLE { title?, dataFieldSimplyId, direction?, columnFieldSimplyIds?, rowLimit? }] } (${PRIVILEGED})`,
      operation: operation`mutation CreateDataCardGroup($id: String!, $input: JSON!) { createDataCardGroup(dataCollectionSimplyId: $id, input: $input) { ${DATA_CARD_GROUP} } }`,
      body: cardGroupInput,
      example: EXAMPLE,
      variables: ({ params, body }) => ({ id: params.dataCollectionSimplyId, input: body }),
      status: 201,
    }),
    route({
      method: 'PUT',
      path: GROUP,
      summary: 'Replace a card group',
      description: `Replace a card group's name and cards (the body of POST); position moves it, absent keeps its place (${PRIVILEGED})`,
      operation: operation`mutation ReplaceDataCardGroup($dataCollectionSimplyId: String!, $id: String!, $input: JSON!) {
        replaceDataCardGroup(dataCollectionSimplyId: $dataCollectionSimplyId, dataCardGroupSimplyId: $id, input: $input) { ${DATA_CARD_GROUP} } }`,
      body: cardGroupInput,
      example: EXAMPLE,
      variables: ({ params, body }) => ({ dataCollectionSimplyId: params.dataCollectionSimplyId, id: params.dataCardGroupSimplyId, input: body }),
    }),
    actOn({
      method: 'DELETE',
      path: GROUP,
      summary: 'Delete a card group',
      description: `Delete a card group; the groups after it move up (${PRIVILEGED})`,
      name: 'DeleteDataCardGroup',
    }),
  ],
  EXTENSIONS,
);
