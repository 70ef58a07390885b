// Bodies for the routes that take an id in the path and a body: each is valid for the caller's own
// resources, so a request naming another team's id gets past validation to the lookup, and what it
// is answered says whether that id is visible. A new route with a body must add a line here (the
// suite fails naming it): without one its lookup is never reached.
import { randomBytes } from 'node:crypto';

/** the route takes a body but works without one */
export const NO_BODY = Symbol('no body');

type OwnIds = Record<string, string>;
type BodyFor = (own: OwnIds) => unknown;

const fresh = (what: string) => `${what} ${randomBytes(3).toString('hex')}`;

export const ID_ROUTE_BODIES: Record<string, BodyFor> = {
  'POST /v1/background-tasks/{backgroundTaskSimplyId}/errors/{backgroundTaskErrorSimplyId}/acknowledge': () => ({}),
  'POST /v1/background-tasks/{backgroundTaskSimplyId}/archive': () => ({}),
  'POST /v1/background-tasks/{backgroundTaskSimplyId}/unarchive': () => ({}),
  'POST /v1/background-tasks/{backgroundTaskSimplyId}/cancel': () => ({}),
  'PATCH /v1/api-keys/{apiKeySimplyId}': () => ({ name: fresh('renamed key') }),
  'PUT /v1/users/me/mobile-devices/{deviceSimplyId}': () => ({ deviceName: fresh('renamed device') }),
  'POST /v1/api-keys/{apiKeySimplyId}/rotate': () => NO_BODY,
  'PUT /v1/team-roles/{teamRoleSimplyId}': () => ({ name: fresh('replaced role') }),
  'PATCH /v1/data-collections/{dataCollectionSimplyId}': () => ({ archetype: 'PERSON' }),
  'POST /v1/data-collections/{dataCollectionSimplyId}/rename': () => ({ name: fresh('renamed collection') }),
  'POST /v1/data-collections/{dataCollectionSimplyId}/archive': () => ({ isArchived: false }),
  'POST /v1/data-collections/{dataCollectionSimplyId}/recalculate-record-names': () => ({}),
  'POST /v1/data-collections/{dataCollectionSimplyId}/resync-smart-membership': () => ({}),
  'POST /v1/data-collections/{dataCollectionSimplyId}/fields': () => ({ title: fresh('added field'), dataType: 'PLAIN_TEXT' }),
  'PUT /v1/data-collections/{dataCollectionSimplyId}/fields/reorder': (own) => ({ orderedFieldSimplyIds: [own.dataFieldSimplyId] }),
  'PATCH /v1/data-collections/{dataCollectionSimplyId}/fields/{dataFieldSimplyId}': () => ({ title: fresh('retitled field') }),
  'PATCH /v1/data-records/{dataRecordSimplyId}': (own) => ({ fields: { [own.dataFieldSimplyId!]: 'patched' } }),
  'PUT /v1/data-records/{dataRecordSimplyId}': (own) => ({ fields: { [own.dataFieldSimplyId!]: 'put' } }),
  'PUT /v1/webhooks/{webhookSimplyId}': () => ({ retryCount: 1 }),
  'PUT /v1/automations/{automationSimplyId}': () => ({ name: fresh('renamed automation') }),
  'POST /v1/automations/{automationSimplyId}/actions': (own) => ({ actionType: 'UPDATE_FIELDS', actionConfig: { fields: { [own.dataFieldSimplyId!]: 'y' } } }),
  'PUT /v1/automations/{automationSimplyId}/actions/reorder': (own) => ({ orderedActionSimplyIds: [own.automationActionSimplyId] }),
  'PUT /v1/automations/{automationSimplyId}/actions/{automationActionSimplyId}': () => ({ continueOnError: true }),
  'POST /v1/data-wizards/{dataWizardSimplyId}/execute': (own) => ({ dataRecordSimplyId: own.dataRecordSimplyId }),
  'PATCH /v1/files/folders/{fileFolderSimplyId}': () => ({ name: fresh('renamed folder') }),
  'PATCH /v1/files/{fileSimplyId}': () => ({ altText: fresh('alt text') }),
  'PUT /v1/files/{fileSimplyId}/folder': () => ({ fileFolderSimplyId: null }),
  'PUT /v1/message-templates/{outgoingMessageTemplateSimplyId}': () => ({ name: fresh('renamed message template') }),
  'PUT /v1/message-senders/{messageSenderSimplyId}': () => ({ name: fresh('renamed sender'), isDefault: true }),
  'PATCH /v1/content-templates/{contentTemplateSimplyId}': () => ({ name: fresh('renamed content template') }),
  'POST /v1/content-templates/{contentTemplateSimplyId}/preview-render': (own) => ({ dataRecordSimplyId: own.dataRecordSimplyId }),
  'POST /v1/content-templates/{contentTemplateSimplyId}/copy': () => ({}),
  'POST /v1/content-templates/collection/{dataCollectionSimplyId}/link': (own) => ({ contentTemplateSimplyId: own.contentTemplateSimplyId }),
  'PUT /v1/outgoing-messages/{outgoingMessageSimplyId}': () => ({ internalName: fresh('renamed outgoing message') }),
  // the caller's own message may not make this move (its team does not require approval: 409); the lookup comes first
  'PUT /v1/outgoing-messages/{outgoingMessageSimplyId}/status': () => ({ status: 'AWAITING_APPROVAL' }),
  'POST /v1/outgoing-messages/{outgoingMessageSimplyId}/test-send': () => ({ to: ['world@example.test'] }),
  'POST /v1/signing-requests/{signingRequestSimplyId}/resend': () => ({}),
  'POST /v1/signing-requests/{signingRequestSimplyId}/void': () => ({ reason: fresh('voided') }),
  // a soft delete; { force: true } is the same lookup
  'DELETE /v1/files/{fileSimplyId}': () => NO_BODY,
};
