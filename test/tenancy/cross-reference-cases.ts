// Ids that travel in a body or a query rather than the path: a collection to write into or filter
// by, a role to give a key, a field to grant, a record to run a wizard on. Each case is one request
// of the caller's own, with one id (`ref`, a path parameter name of the route world) taken from the
// other team; it must be answered as the same request with an id that exists nowhere.
import { randomBytes } from 'node:crypto';
import { sha256Base64 } from '../support/file-uploads.ts';

type Ids = Record<string, string>;

export interface CrossReferenceCase {
  /** `${method} ${path}` of the route, as in the route table */
  route: string;
  /** what the case probes */
  what: string;
  /** which of the other team's ids is sent (a route-world parameter name) */
  ref: string;
  /** the request: `own` are the caller's ids, `foreign` the id under test */
  request(own: Ids, foreign: string): { path: string; body?: unknown };
}

const fresh = (what: string) => `${what} ${randomBytes(3).toString('hex')}`;

const collectionCases: CrossReferenceCase[] = [
  { route: 'GET /v1/data-records', what: 'list records of a collection', ref: 'dataCollectionSimplyId', request: (_, id) => ({ path: `/v1/data-records?dataCollectionSimplyId=${id}` }) },
  { route: 'GET /v1/data-views', what: 'list views of a collection', ref: 'dataCollectionSimplyId', request: (_, id) => ({ path: `/v1/data-views?dataCollectionSimplyId=${id}` }) },
  { route: 'GET /v1/automations', what: 'list automations of a collection', ref: 'dataCollectionSimplyId', request: (_, id) => ({ path: `/v1/automations?dataCollectionSimplyId=${id}` }) },
  { route: 'POST /v1/data-records', what: 'create a record in a collection', ref: 'dataCollectionSimplyId', request: (_, id) => ({ path: '/v1/data-records', body: { dataCollectionSimplyId: id, fields: {} } }) },
  { route: 'POST /v1/data-records/search', what: 'search a collection', ref: 'dataCollectionSimplyId', request: (_, id) => ({ path: '/v1/data-records/search', body: { dataCollectionSimplyId: id } }) },
  {
    route: 'POST /v1/data-records/batch',
    what: 'batch-create in a collection',
    ref: 'dataCollectionSimplyId',
    request: (_, id) => ({ path: '/v1/data-records/batch', body: { dataCollectionSimplyId: id, records: [{ fields: {} }] } }),
  },
  {
    route: 'POST /v1/create-menu/data-records',
    what: 'create-menu a record in a collection',
    ref: 'dataCollectionSimplyId',
    request: (_, id) => ({ path: '/v1/create-menu/data-records', body: { dataCollectionSimplyId: id, formData: {} } }),
  },
  {
    route: 'POST /v1/data-views',
    what: 'create a view on a collection',
    ref: 'dataCollectionSimplyId',
    request: (_, id) => ({ path: '/v1/data-views', body: { dataCollectionSimplyId: id, name: fresh('view'), enumDataViewTypeId: 'LIST' } }),
  },
  {
    route: 'POST /v1/webhooks',
    what: 'create a webhook filtered on a collection',
    ref: 'dataCollectionSimplyId',
    request: (_, id) => ({ path: '/v1/webhooks', body: { eventType: 'DATA_RECORD_CREATED', targetUrl: 'https://127.0.0.1:9/in', retryCount: 0, filterCriteria: { dataCollectionIds: [id] } } }),
  },
  {
    route: 'PUT /v1/webhooks/{webhookSimplyId}',
    what: 're-filter own webhook on a collection',
    ref: 'dataCollectionSimplyId',
    request: (own, id) => ({ path: `/v1/webhooks/${own.webhookSimplyId}`, body: { filterCriteria: { dataCollectionIds: [id] } } }),
  },
  {
    route: 'POST /v1/automations',
    what: 'create an automation on a collection',
    ref: 'dataCollectionSimplyId',
    request: (_, id) => ({ path: '/v1/automations', body: { name: fresh('automation'), triggerType: 'RECORD_CREATED', dataCollectionSimplyId: id, isEnabled: false } }),
  },
  {
    route: 'PUT /v1/automations/{automationSimplyId}',
    what: 'move own automation to a collection',
    ref: 'dataCollectionSimplyId',
    request: (own, id) => ({ path: `/v1/automations/${own.automationSimplyId}`, body: { dataCollectionSimplyId: id } }),
  },
  {
    route: 'POST /v1/automations/{automationSimplyId}/actions',
    what: 'CREATE_RECORD action into a collection',
    ref: 'dataCollectionSimplyId',
    request: (own, id) => ({ path: `/v1/automations/${own.automationSimplyId}/actions`, body: { actionType: 'CREATE_RECORD', actionConfig: { dataCollectionSimplyId: id, fields: {} } } }),
  },
  {
    route: 'POST /v1/team-roles',
    what: 'create a role granting a collection',
    ref: 'dataCollectionSimplyId',
    request: (_, id) => ({ path: '/v1/team-roles', body: { name: fresh('role'), dataPermissions: [{ dataCollectionSimplyId: id, level: 'READ' }] } }),
  },
  {
    route: 'PUT /v1/team-roles/{teamRoleSimplyId}',
    what: 'replace own role granting a collection',
    ref: 'dataCollectionSimplyId',
    request: (own, id) => ({ path: `/v1/team-roles/${own.teamRoleSimplyId}`, body: { name: fresh('role'), dataPermissions: [{ dataCollectionSimplyId: id, level: 'EDIT' }] } }),
  },
  {
    route: 'POST /v1/data-collections',
    what: 'create a collection under a parent',
    ref: 'dataCollectionSimplyId',
    request: (_, id) => ({ path: '/v1/data-collections', body: { name: fresh('child'), parentDataCollectionSimplyId: id } }),
  },
  {
    route: 'POST /v1/data-collections',
    what: 'create a SMART collection over a source',
    ref: 'dataCollectionSimplyId',
    request: (_, id) => ({ path: '/v1/data-collections', body: { name: fresh('smart'), type: 'SMART', parentDataCollectionSimplyId: id, filterCriteria: [] } }),
  },
  {
    route: 'POST /v1/data-collections',
    what: 'create a collection whose reference field targets a collection',
    ref: 'dataCollectionSimplyId',
    request: (_, id) => ({
      path: '/v1/data-collections',
      body: { name: fresh('referrer'), fields: [{ title: 'link', dataType: 'SINGLE_DATA_RECORD', config: { targetDataCollectionSimplyId: id } }] },
    }),
  },
  {
    route: 'PATCH /v1/data-collections/{dataCollectionSimplyId}',
    what: 're-parent own collection',
    ref: 'dataCollectionSimplyId',
    request: (own, id) => ({ path: `/v1/data-collections/${own.dataCollectionSimplyId}`, body: { parentDataCollectionSimplyId: id } }),
  },
  {
    route: 'POST /v1/data-collections/{dataCollectionSimplyId}/fields',
    what: 'add a reference field targeting a collection',
    ref: 'dataCollectionSimplyId',
    request: (own, id) => ({
      path: `/v1/data-collections/${own.dataCollectionSimplyId}/fields`,
      body: { title: fresh('link'), dataType: 'SINGLE_DATA_RECORD', config: { targetDataCollectionSimplyId: id } },
    }),
  },
];

const recordCases: CrossReferenceCase[] = [
  {
    route: 'PATCH /v1/data-records/batch',
    what: 'batch-update a record',
    ref: 'dataRecordSimplyId',
    request: (own, id) => ({ path: '/v1/data-records/batch', body: { records: [{ dataRecordSimplyId: id, fields: { [own.dataFieldSimplyId!]: 'batched' } }] } }),
  },
  { route: 'DELETE /v1/data-records/batch', what: 'batch-delete a record', ref: 'dataRecordSimplyId', request: (_, id) => ({ path: '/v1/data-records/batch', body: { dataRecordSimplyIds: [id] } }) },
  {
    route: 'POST /v1/data-wizards/{dataWizardSimplyId}/execute',
    what: 'run own wizard on a record',
    ref: 'dataRecordSimplyId',
    request: (own, id) => ({ path: `/v1/data-wizards/${own.dataWizardSimplyId}/execute`, body: { dataRecordSimplyId: id } }),
  },
  {
    route: 'POST /v1/data-records',
    what: 'a reference field value naming a record',
    ref: 'dataRecordSimplyId',
    request: (own, id) => ({ path: '/v1/data-records', body: { dataCollectionSimplyId: own.dataCollectionSimplyId, fields: { [own.referenceFieldSimplyId!]: id } } }),
  },
  {
    route: 'PATCH /v1/data-records/{dataRecordSimplyId}',
    what: 'a reference field update naming a record',
    ref: 'dataRecordSimplyId',
    request: (own, id) => ({ path: `/v1/data-records/${own.dataRecordSimplyId}`, body: { fields: { [own.referenceFieldSimplyId!]: id } } }),
  },
];

const fieldCases: CrossReferenceCase[] = [
  {
    route: 'POST /v1/team-roles',
    what: 'create a role narrowing a field',
    ref: 'dataFieldSimplyId',
    request: (_, id) => ({ path: '/v1/team-roles', body: { name: fresh('role'), fieldPermissions: [{ dataFieldSimplyId: id, level: 'NONE' }] } }),
  },
  {
    route: 'POST /v1/data-views',
    what: 'a view on own collection showing a field',
    ref: 'dataFieldSimplyId',
    request: (own, id) => ({ path: '/v1/data-views', body: { dataCollectionSimplyId: own.dataCollectionSimplyId, name: fresh('view'), enumDataViewTypeId: 'LIST', config: { columns: [id] } } }),
  },
  {
    route: 'POST /v1/data-records/search',
    what: 'search own collection filtering on a field',
    ref: 'dataFieldSimplyId',
    request: (own, id) => ({ path: '/v1/data-records/search', body: { dataCollectionSimplyId: own.dataCollectionSimplyId, filters: [{ field: id, operator: 'eq', value: 'x' }] } }),
  },
  {
    route: 'PUT /v1/data-collections/{dataCollectionSimplyId}/fields/reorder',
    what: 'reorder own collection naming a field',
    ref: 'dataFieldSimplyId',
    request: (own, id) => ({ path: `/v1/data-collections/${own.dataCollectionSimplyId}/fields/reorder`, body: { orderedFieldSimplyIds: [id] } }),
  },
  {
    route: 'POST /v1/automations/{automationSimplyId}/actions',
    what: 'UPDATE_FIELDS action writing a field',
    ref: 'dataFieldSimplyId',
    request: (own, id) => ({ path: `/v1/automations/${own.automationSimplyId}/actions`, body: { actionType: 'UPDATE_FIELDS', actionConfig: { fields: { [id]: 'x' } } } }),
  },
  {
    route: 'POST /v1/data-wizards/{dataWizardSimplyId}/execute',
    what: 'run own wizard with formData for a field',
    ref: 'dataFieldSimplyId',
    request: (own, id) => ({ path: `/v1/data-wizards/${own.dataWizardSimplyId}/execute`, body: { dataRecordSimplyId: own.dataRecordSimplyId, formData: { [id]: 'x' } } }),
  },
];

const otherCases: CrossReferenceCase[] = [
  {
    route: 'POST /v1/api-keys',
    what: 'create a key with a role',
    ref: 'teamRoleSimplyId',
    request: (_, id) => ({ path: '/v1/api-keys', body: { name: fresh('key'), teamRoleSimplyId: id } }),
  },
  {
    route: 'PATCH /v1/api-keys/{apiKeySimplyId}',
    what: 'give own key a role',
    ref: 'teamRoleSimplyId',
    request: (own, id) => ({ path: `/v1/api-keys/${own.apiKeySimplyId}`, body: { teamRoleSimplyId: id } }),
  },
  {
    route: 'POST /v1/automations',
    what: 'a wizard trigger naming a wizard',
    ref: 'dataWizardSimplyId',
    request: (_, id) => ({ path: '/v1/automations', body: { name: fresh('automation'), triggerType: 'WIZARD_COMPLETED', triggerConfig: { dataWizardSimplyId: id }, isEnabled: false } }),
  },
  {
    route: 'POST /v1/automations/{automationSimplyId}/actions',
    what: 'RUN_WIZARD_STEP action naming a wizard',
    ref: 'dataWizardSimplyId',
    request: (own, id) => ({ path: `/v1/automations/${own.automationSimplyId}/actions`, body: { actionType: 'RUN_WIZARD_STEP', actionConfig: { dataWizardSimplyId: id } } }),
  },
  {
    route: 'POST /v1/automations/{automationSimplyId}/actions',
    what: 'SEND_USER_NOTIFICATION action naming a user',
    ref: 'userSimplyId',
    request: (own, id) => ({ path: `/v1/automations/${own.automationSimplyId}/actions`, body: { actionType: 'SEND_USER_NOTIFICATION', actionConfig: { userSimplyId: id, title: 'hello' } } }),
  },
  {
    route: 'PUT /v1/automations/{automationSimplyId}/actions/reorder',
    what: 'reorder own automation naming an action',
    ref: 'automationActionSimplyId',
    request: (own, id) => ({ path: `/v1/automations/${own.automationSimplyId}/actions/reorder`, body: { orderedActionSimplyIds: [own.automationActionSimplyId, id] } }),
  },
];

const contentTemplateCases: CrossReferenceCase[] = [
  {
    route: 'POST /v1/content-templates',
    what: 'create a document template for a collection',
    ref: 'dataCollectionSimplyId',
    request: (_, id) => ({ path: '/v1/content-templates', body: { name: fresh('template'), dataCollectionSimplyId: id, textContent: 'x' } }),
  },
  {
    route: 'POST /v1/content-templates',
    what: 'create a personal template owned by a member',
    ref: 'teamUserLinkSimplyId',
    request: (own, id) => ({
      path: '/v1/content-templates',
      body: { name: fresh('template'), dataCollectionSimplyId: own.dataCollectionSimplyId, templateScope: 'PERSONAL', ownerTeamUserLinkSimplyId: id },
    }),
  },
  {
    route: 'POST /v1/content-templates/{contentTemplateSimplyId}/preview-render',
    what: 'preview own template for a record',
    ref: 'dataRecordSimplyId',
    request: (own, id) => ({ path: `/v1/content-templates/${own.contentTemplateSimplyId}/preview-render`, body: { dataRecordSimplyId: id } }),
  },
  {
    route: 'POST /v1/content-templates/{contentTemplateSimplyId}/copy',
    what: 'copy own template into a collection',
    ref: 'dataCollectionSimplyId',
    request: (own, id) => ({ path: `/v1/content-templates/${own.contentTemplateSimplyId}/copy`, body: { dataCollectionSimplyId: id } }),
  },
  {
    route: 'POST /v1/content-templates/collection/{dataCollectionSimplyId}/link',
    what: 'link a template to own collection',
    ref: 'contentTemplateSimplyId',
    request: (own, id) => ({ path: `/v1/content-templates/collection/${own.dataCollectionSimplyId}/link`, body: { contentTemplateSimplyId: id } }),
  },
];

/** a draft's body, valid but for the id under test */
const draft = (extra: Record<string, unknown>) => ({ internalName: fresh('message'), subjectLine: 's', htmlContent: '<p>x</p>', ...extra });
const recipientsOf = (own: Ids, extra: Record<string, unknown>) => ({ recipients: { dataCollectionSimplyId: own.dataCollectionSimplyId, ...extra } });

const outgoingMessageCases: CrossReferenceCase[] = [
  ...(['POST', 'PUT'] as const).flatMap((method): CrossReferenceCase[] => {
    const route = method === 'POST' ? 'POST /v1/outgoing-messages' : 'PUT /v1/outgoing-messages/{outgoingMessageSimplyId}';
    const path = (own: Ids) => (method === 'POST' ? '/v1/outgoing-messages' : `/v1/outgoing-messages/${own.outgoingMessageSimplyId}`);
    const verb = method === 'POST' ? 'compose a message' : 'change own draft';
    return [
      { route, what: `${verb} to a collection`, ref: 'dataCollectionSimplyId', request: (own, id) => ({ path: path(own), body: draft({ recipients: { dataCollectionSimplyId: id } }) }) },
      { route, what: `${verb} to a view of own collection`, ref: 'dataViewSimplyId', request: (own, id) => ({ path: path(own), body: draft(recipientsOf(own, { dataViewSimplyId: id })) }) },
      { route, what: `${verb} with an email field`, ref: 'dataFieldSimplyId', request: (own, id) => ({ path: path(own), body: draft(recipientsOf(own, { emailFieldSimplyId: id })) }) },
      { route, what: `${verb} from a sender`, ref: 'messageSenderSimplyId', request: (own, id) => ({ path: path(own), body: draft({ messageSenderSimplyId: id }) }) },
      { route, what: `${verb} from a message template`, ref: 'outgoingMessageTemplateSimplyId', request: (own, id) => ({ path: path(own), body: draft({ outgoingMessageTemplateSimplyId: id }) }) },
    ];
  }),
  {
    route: 'POST /v1/outgoing-messages/{outgoingMessageSimplyId}/test-send',
    what: 'test-send own message rendered for a record',
    ref: 'dataRecordSimplyId',
    request: (own, id) => ({ path: `/v1/outgoing-messages/${own.outgoingMessageSimplyId}/test-send`, body: { to: ['world@example.test'], dataRecordSimplyId: id } }),
  },
];

/** a signing request on the caller's own record, valid but for the id under test */
const signingRequest = (own: Ids, extra: Record<string, unknown>) => ({
  sourceDataCollectionSimplyId: own.dataCollectionSimplyId,
  sourceDataRecordSimplyId: own.dataRecordSimplyId,
  reviewFieldSimplyIds: [own.dataFieldSimplyId],
  signers: [{ roleKey: 'signer', name: 'Signer', email: 'signer@example.org' }],
  expirationDays: 30,
  sendImmediately: false,
  ...extra,
});

const signingCases: CrossReferenceCase[] = [
  { route: 'POST /v1/signing-requests', what: 'a signing request on a collection', ref: 'dataCollectionSimplyId', request: (own, id) => ({ path: '/v1/signing-requests', body: signingRequest(own, { sourceDataCollectionSimplyId: id }) }) },
  { route: 'POST /v1/signing-requests', what: 'a signing request on a record', ref: 'dataRecordSimplyId', request: (own, id) => ({ path: '/v1/signing-requests', body: signingRequest(own, { sourceDataRecordSimplyId: id }) }) },
  { route: 'POST /v1/signing-requests', what: 'a signing request reviewing a field', ref: 'dataFieldSimplyId', request: (own, id) => ({ path: '/v1/signing-requests', body: signingRequest(own, { reviewFieldSimplyIds: [id] }) }) },
  { route: 'POST /v1/signing-requests', what: 'a signing request backed by a document template', ref: 'contentTemplateSimplyId', request: (own, id) => ({ path: '/v1/signing-requests', body: signingRequest(own, { contentTemplateSimplyId: id }) }) },
  { route: 'GET /v1/signing-requests', what: 'list the signing requests of a record', ref: 'dataRecordSimplyId', request: (_, id) => ({ path: `/v1/signing-requests?sourceDataRecordSimplyId=${id}` }) },
];

/** an upload intent's body, valid but for the id under test */
const intent = (extra: Record<string, unknown>) => ({ filename: 'x.txt', contentType: 'text/plain', fileSizeBytes: 2, checksumSha256: sha256Base64('x\n'), ...extra });

const fileCases: CrossReferenceCase[] = [
  { route: 'GET /v1/files', what: 'list files of a folder', ref: 'fileFolderSimplyId', request: (_, id) => ({ path: `/v1/files?fileFolderSimplyId=${id}` }) },
  { route: 'GET /v1/files', what: 'list files carrying a label', ref: 'labelSimplyId', request: (_, id) => ({ path: `/v1/files?labelSimplyIds=${id}&includeDeleted=true` }) },
  { route: 'GET /v1/files/folders', what: 'list the folders in a folder', ref: 'fileFolderSimplyId', request: (_, id) => ({ path: `/v1/files/folders?parentFileFolderSimplyId=${id}` }) },
  { route: 'POST /v1/files/folders', what: 'create a folder in a folder', ref: 'fileFolderSimplyId', request: (_, id) => ({ path: '/v1/files/folders', body: { name: fresh('folder'), parentFileFolderSimplyId: id } }) },
  {
    route: 'PATCH /v1/files/folders/{fileFolderSimplyId}',
    what: 'move own folder into a folder',
    ref: 'fileFolderSimplyId',
    request: (own, id) => ({ path: `/v1/files/folders/${own.fileFolderSimplyId}`, body: { parentFileFolderSimplyId: id } }),
  },
  { route: 'PUT /v1/files/{fileSimplyId}/folder', what: 'move own file into a folder', ref: 'fileFolderSimplyId', request: (own, id) => ({ path: `/v1/files/${own.fileSimplyId}/folder`, body: { fileFolderSimplyId: id } }) },
  { route: 'PATCH /v1/files/{fileSimplyId}', what: 'label own file', ref: 'labelSimplyId', request: (own, id) => ({ path: `/v1/files/${own.fileSimplyId}`, body: { labelSimplyIds: [own.labelSimplyId, id] } }) },
  { route: 'POST /v1/files/download-urls', what: 'presigned URLs of files', ref: 'fileSimplyId', request: (own, id) => ({ path: '/v1/files/download-urls', body: { fileSimplyIds: [own.fileSimplyId, id] } }) },
  { route: 'POST /v1/files/bulk-delete', what: 'soft-delete files', ref: 'fileSimplyId', request: (_, id) => ({ path: '/v1/files/bulk-delete', body: { fileSimplyIds: [id] } }) },
  { route: 'POST /v1/files/bulk-delete', what: 'destroy files', ref: 'fileSimplyId', request: (_, id) => ({ path: '/v1/files/bulk-delete', body: { fileSimplyIds: [id], force: true } }) },
  { route: 'POST /v1/file-uploads', what: 'an upload into a folder', ref: 'fileFolderSimplyId', request: (_, id) => ({ path: '/v1/file-uploads', body: intent({ fileFolderSimplyId: id }) }) },
  { route: 'POST /v1/file-uploads', what: 'an upload replacing a file', ref: 'fileSimplyId', request: (_, id) => ({ path: '/v1/file-uploads', body: intent({ isNewVersionOfFileSimplyId: id }) }) },
  { route: 'POST /v1/files/batch', what: 'batch uploads into a folder', ref: 'fileFolderSimplyId', request: (_, id) => ({ path: '/v1/files/batch', body: { files: [intent({}), intent({ fileFolderSimplyId: id })] } }) },
  { route: 'POST /v1/files/batch', what: 'batch uploads replacing a file', ref: 'fileSimplyId', request: (_, id) => ({ path: '/v1/files/batch', body: { files: [intent({ isNewVersionOfFileSimplyId: id })] } }) },
  { route: 'POST /v1/files/temp-cleanup', what: 'clean up uploads', ref: 'fileUploadSimplyId', request: (_, id) => ({ path: '/v1/files/temp-cleanup', body: { fileUploadSimplyIds: [id] } }) },
];

const conversationCases: CrossReferenceCase[] = [
  { route: 'POST /v1/conversations', what: 'a conversation tied to a record', ref: 'dataRecordSimplyId', request: (_, id) => ({ path: '/v1/conversations', body: { subject: fresh('tied'), dataRecordSimplyId: id } }) },
  {
    route: 'POST /v1/conversations/inbox/{conversationSimplyId}/merge',
    what: 'merge own conversation into another',
    ref: 'conversationSimplyId',
    request: (own, id) => ({ path: `/v1/conversations/inbox/${own.conversationSimplyId}/merge`, body: { into: id } }),
  },
  {
    route: 'POST /v1/conversations/inbox/{conversationSimplyId}/merge',
    what: 'merge another conversation into own',
    ref: 'conversationSimplyId',
    request: (own, id) => ({ path: `/v1/conversations/inbox/${own.conversationSimplyId}/merge`, body: { source: id } }),
  },
];

export const CROSS_REFERENCE_CASES: readonly CrossReferenceCase[] = [...collectionCases, ...recordCases, ...fieldCases, ...otherCases, ...fileCases, ...contentTemplateCases, ...outgoingMessageCases, ...signingCases, ...conversationCases];
