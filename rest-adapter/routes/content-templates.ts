// /v1/content-templates → src/modules/content-templates/content-templates.schema.ts (docs/api/content-templates.md)
import { z } from 'zod';
import {
  copyContentTemplateInput,
  createContentTemplateBody,
  linkTemplateInput,
  previewRenderInput,
  TEMPLATE_SORTS,
  updateContentTemplateInput,
  USAGE_TYPES,
} from '../../src/modules/content-templates/content-templates.input.ts';
import {
  COLLECTION_CONTENT_TEMPLATE,
  CONTENT_TEMPLATE,
  CONTENT_TEMPLATE_DETAIL,
  CONTENT_TEMPLATE_LINK,
  CONTENT_TEMPLATE_PREVIEW,
  CONTENT_TEMPLATE_READINESS,
  CONTENT_TEMPLATE_USAGE,
} from '../../src/modules/content-templates/content-templates.fragments.ts';
import { operation } from '../../src/app/graphql/fragments.ts';
import { defineRoutes, route } from '../route.ts';
import { actOn, createOne, getOne, listPage, updateOne } from '../route-shapes.ts';
import { queryBool } from '../schemas.ts';

const PATH = '/v1/content-templates';
const ONE = `${PATH}/{contentTemplateSimplyId}`;
const COLLECTION = `${PATH}/collection/{dataCollectionSimplyId}`;
const KIND = 'library edit, or edit access to a document template\'s collection';

export const contentTemplateRoutes = defineRoutes([
  listPage({
    path: PATH,
    summary: 'List content templates',
    description: 'The template library (TEAM_ADMIN_CONTENT_TEMPLATE_LIBRARY view): limit, offset, search, usageType, sort, includeArchived',
    name: 'ContentTemplates',
    select: CONTENT_TEMPLATE,
    filters: {
      search: { type: 'String', schema: z.string().optional().describe('text the name contains (any language, case-insensitive)') },
      usageType: { type: 'String', schema: z.string().optional().describe(`only templates of this usage: ${USAGE_TYPES.join(', ')}`) },
      sort: { type: 'String', schema: z.string().optional().describe(`${TEMPLATE_SORTS.join(', ')} (default createdAt_DESC)`) },
      includeArchived: { type: 'Boolean', schema: queryBool().describe('true adds archived templates (default false)') },
    },
  }),
  createOne({
    path: PATH,
    summary: 'Create a content template',
    description: `Create (${KIND}): { name, textContent, usageTypes, description?, deliveryMethod? } or, for a document template, { name, dataCollectionSimplyId, templateScope?, documentSettings?, ownerTeamUserLinkSimplyId?, description?, textContent? }`,
    name: 'CreateContentTemplate',
    inputType: 'CreateContentTemplateInput',
    body: createContentTemplateBody,
    example: {
      name: { en: 'Spring newsletter', de: 'Frühlingsbrief' },
      textContent: 'Dear {{first_name}}, spring is here.',
      usageTypes: ['OUTGOING_MESSAGE'],
      deliveryMethod: 'EMAIL',
    },
    select: CONTENT_TEMPLATE_DETAIL,
  }),
  getOne({ path: ONE, summary: 'Get a content template', description: 'One template with its design, archived ones included (view)', name: 'ContentTemplate', select: CONTENT_TEMPLATE_DETAIL }),
  updateOne({
    method: 'PATCH',
    path: ONE,
    summary: 'Update a content template',
    description: `Update (${KIND}): any of name, description, textContent, designJson, designHtml (sanitized), documentSettings; a design needs documentSettings; archived: 409`,
    name: 'UpdateContentTemplate',
    inputType: 'UpdateContentTemplateInput',
    body: updateContentTemplateInput,
    example: { description: 'Sent every March', textContent: 'Dear {{first_name}} of {{city}}, spring is here.' },
    select: CONTENT_TEMPLATE_DETAIL,
  }),
  actOn({ method: 'DELETE', path: ONE, summary: 'Archive a content template', description: `Archive a template (${KIND}); consumers keep working; again: 404`, name: 'DeleteContentTemplate', field: 'deleteContentTemplate' }),
  getOne({ path: `${ONE}/readiness`, summary: "Check a template's readiness", description: 'Readiness issues graded BLOCKING, WARNING, INFO (view)', name: 'ContentTemplateReadiness', select: CONTENT_TEMPLATE_READINESS }),
  route({
    method: 'POST',
    path: `${ONE}/preview-render`,
    summary: 'Preview a template for a record',
    description: 'Render the template for one readable record: { dataRecordSimplyId, previewRoleKey? } → html, bodyHtml, headerHtml, footerHtml; nothing is stored (view)',
    operation: operation`query ContentTemplatePreview($id: String!, $input: ContentTemplatePreviewInput!) { contentTemplatePreview(contentTemplateSimplyId: $id, input: $input) { ${CONTENT_TEMPLATE_PREVIEW} } }`,
    body: previewRenderInput,
    example: { dataRecordSimplyId: 'QR67-ST89-UV23' },
    variables: ({ params, body }) => ({ id: params.contentTemplateSimplyId, input: body }),
  }),
  getOne({ path: `${ONE}/usage`, summary: "Get a template's usage", description: 'Where the template is used: collections and their record counts, wrappers, signing profiles, generation events (view)', name: 'ContentTemplateUsage', select: CONTENT_TEMPLATE_USAGE }),
  getOne({
    path: COLLECTION,
    summary: "List a collection's templates",
    description: "The collection's active document templates and those inherited from its parent collections, nearest first (read access to the collection)",
    name: 'CollectionContentTemplates',
    select: COLLECTION_CONTENT_TEMPLATE,
  }),
  route({
    method: 'POST',
    path: `${ONE}/copy`,
    summary: 'Copy a content template',
    description: 'Copy (view on the source, edit where the copy goes): { dataCollectionSimplyId?, templateScope? }; 201 with the copy',
    operation: operation`mutation CopyContentTemplate($id: String!, $input: CopyContentTemplateInput) { copyContentTemplate(contentTemplateSimplyId: $id, input: $input) { ${CONTENT_TEMPLATE_DETAIL} } }`,
    body: copyContentTemplateInput.optional(),
    example: { dataCollectionSimplyId: 'GH89-JK23-MN45', templateScope: 'PERSONAL' },
    variables: ({ params, body }) => ({ id: params.contentTemplateSimplyId, input: body ?? {} }),
    status: 201,
  }),
  route({
    method: 'POST',
    path: `${COLLECTION}/link`,
    summary: 'Link a template to a collection',
    description: 'Assign a document template to this collection (edit on its current and this collection): { contentTemplateSimplyId }; child collections inherit it',
    operation: operation`mutation LinkContentTemplate($dataCollectionSimplyId: String!, $contentTemplateSimplyId: String!) { linkContentTemplate(dataCollectionSimplyId: $dataCollectionSimplyId, contentTemplateSimplyId: $contentTemplateSimplyId) { ${CONTENT_TEMPLATE_LINK} } }`,
    body: linkTemplateInput,
    example: { contentTemplateSimplyId: 'ctpl-AB23-CD45-EF67' },
    variables: ({ params, body }) => ({ dataCollectionSimplyId: params.dataCollectionSimplyId, contentTemplateSimplyId: body.contentTemplateSimplyId }),
  }),
  actOn({
    method: 'DELETE',
    path: `${COLLECTION}/link/{contentTemplateSimplyId}`,
    summary: 'Unlink a template (always refused)',
    description: 'Always 400 VALIDATION_ERROR: a document template keeps exactly one collection (link it elsewhere), other templates have none',
    name: 'UnlinkContentTemplate',
    field: 'unlinkContentTemplate',
  }),
]);
