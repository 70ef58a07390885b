// What the content-template suites share: the paths, the GraphQL documents, and bodies of the two
// kinds of template.
import { operation } from '../../src/app/graphql/fragments.ts';
import {
  COLLECTION_CONTENT_TEMPLATE,
  CONTENT_TEMPLATE,
  CONTENT_TEMPLATE_DETAIL,
  CONTENT_TEMPLATE_LINK,
  CONTENT_TEMPLATE_PREVIEW,
  CONTENT_TEMPLATE_READINESS,
  CONTENT_TEMPLATE_USAGE,
} from '../../src/modules/content-templates/content-templates.fragments.ts';
import { expectOk } from '../support/expect-envelope.ts';
import type { RestCall } from '../support/rest-caller.ts';

export const PATH = '/v1/content-templates';
export const one = (id: string) => `${PATH}/${id}`;
export const inCollection = (id: string) => `${PATH}/collection/${id}`;
export const ID = /^ctpl-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$/;
export const MISSING = 'ctpl-2222-2222-2222';

export const LIST_FIELDS = [
  'archivedAt', 'contentTemplateSimplyId', 'createdAt', 'dataCollectionSimplyId', 'deliveryMethod', 'description', 'hasDesign', 'hasDocumentSettings', 'id', 'name',
  'ownerTeamUserLinkSimplyId', 'templateFormat', 'templateScope', 'textContent', 'updatedAt', 'usageTypes',
];
export const DETAIL_FIELDS = [...LIST_FIELDS, 'designHTML', 'designJson', 'documentSettings'].sort();

export const GQL = {
  list: operation(
    [
      'query($limit: Int, $offset: Int, $search: String, $usageType: String, $sort: String, $includeArchived: Boolean) { contentTemplates(limit: $limit, offset: $offset, search: $search, usageType: $usageType, sort: $sort, includeArchived: $includeArchived) { nodes { ',
      ' } pagination { total limit offset hasMore } } }',
    ],
    CONTENT_TEMPLATE,
  ),
  get: operation(['query($id: String!) { contentTemplate(contentTemplateSimplyId: $id) { ', ' } }'], CONTENT_TEMPLATE_DETAIL),
  create: operation(['mutation($input: CreateContentTemplateInput!) { createContentTemplate(input: $input) { ', ' } }'], CONTENT_TEMPLATE_DETAIL),
  update: operation(['mutation($id: String!, $input: UpdateContentTemplateInput!) { updateContentTemplate(contentTemplateSimplyId: $id, input: $input) { ', ' } }'], CONTENT_TEMPLATE_DETAIL),
  delete: 'mutation($id: String!) { deleteContentTemplate(contentTemplateSimplyId: $id) }',
  readiness: operation(['query($id: String!) { contentTemplateReadiness(contentTemplateSimplyId: $id) { ', ' } }'], CONTENT_TEMPLATE_READINESS),
  usage: operation(['query($id: String!) { contentTemplateUsage(contentTemplateSimplyId: $id) { ', ' } }'], CONTENT_TEMPLATE_USAGE),
  preview: operation(['query($id: String!, $input: ContentTemplatePreviewInput!) { contentTemplatePreview(contentTemplateSimplyId: $id, input: $input) { ', ' } }'], CONTENT_TEMPLATE_PREVIEW),
  collection: operation(['query($id: String!) { collectionContentTemplates(dataCollectionSimplyId: $id) { ', ' } }'], COLLECTION_CONTENT_TEMPLATE),
  copy: operation(['mutation($id: String!, $input: CopyContentTemplateInput) { copyContentTemplate(contentTemplateSimplyId: $id, input: $input) { ', ' } }'], CONTENT_TEMPLATE_DETAIL),
  link: operation(['mutation($c: String!, $t: String!) { linkContentTemplate(dataCollectionSimplyId: $c, contentTemplateSimplyId: $t) { ', ' } }'], CONTENT_TEMPLATE_LINK),
  unlink: 'mutation($c: String!, $t: String!) { unlinkContentTemplate(dataCollectionSimplyId: $c, contentTemplateSimplyId: $t) }',
};

/** An outgoing-message template body. */
export const messageBody = (extra: Record<string, unknown> = {}) => ({ name: 'Welcome', textContent: 'Hello {{first_name}}', usageTypes: ['OUTGOING_MESSAGE'], ...extra });

/** A document template body for `collection`. */
export const documentBody = (collection: string, extra: Record<string, unknown> = {}) => ({
  name: 'Certificate',
  dataCollectionSimplyId: collection,
  textContent: 'Awarded to {{first_name}}',
  documentSettings: { pageSize: 'A4' },
  ...extra,
});

/** POST /v1/content-templates expecting 201; returns `data`. */
export async function createTemplate(call: RestCall, body: Record<string, unknown>, token?: string, teamId?: string): Promise<any> {
  return expectOk(await call('POST', PATH, body, token, teamId), 201);
}
