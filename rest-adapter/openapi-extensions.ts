// Served /v1 routes the route checklist (documented-routes.json) does not list, each with why it
// exists. The route checklist fails on a served route that is neither on it nor here, and the
// OpenAPI document marks these operations (`x-extension`) so readers know they are ours.

export interface RouteExtension {
  reason: string;
  /** callable without a credential */
  public?: boolean;
}

const MESSAGE_SETTINGS = 'the team\'s approval setting for composed messages (docs/api/outgoing-messages.md "Approval setting"): the documents name approval but no route to turn it on';
const SENDERS = 'sender management and mail-domain verification (docs/api/messages.md "Senders and mail domains"): the route checklist names them privileged without routes';
const FIRST_PARTY_SIGN_IN = 'the first-party sign-in (email and password, JWT + refresh token), which the route checklist leaves open (docs/api/authentication.md)';
const API_KEY_ADMIN = 'API key administration beyond create and rotate (the only API key routes of the route checklist): list, inspect, change, revoke';
const TEAM_ROLES = 'team roles over REST (docs/api/team-roles.md): the route checklist has no team-role route';
const FIELD_ADMIN = 'field administration over REST (docs/api/data-collections.md): the route checklist has field reads only';
const MAIL = 'the outgoing mail log (docs/api/mail.md), ours';
const SIGNER_LINK = "the signer's side of a signing request (docs/api/signing-requests.md \"Signing as a signer\"): the documents require signer links but show no signer routes; authorized by the link's token alone";
const TASK_CANCEL = 'cancelling a background task (docs/api/background-tasks.md "Cancelling a task"): tasks can be cancelled while queued or processing, and the route checklist has no route for it';
const SUPPRESSIONS = 'the team\'s suppression list (docs/api/mail-feedback.md "Suppression list"): the route checklist names suppressions privileged without routes';

export const routeExtensions: Readonly<Record<string, RouteExtension>> = {
  'POST /v1/background-tasks/{backgroundTaskSimplyId}/cancel': { reason: TASK_CANCEL },
  'POST /v1/auth/login': { reason: FIRST_PARTY_SIGN_IN, public: true },
  'POST /v1/message-senders': { reason: SENDERS },
  'GET /v1/message-settings': { reason: MESSAGE_SETTINGS },
  'PUT /v1/message-settings': { reason: MESSAGE_SETTINGS },
  'PUT /v1/message-senders/{messageSenderSimplyId}': { reason: SENDERS },
  'DELETE /v1/message-senders/{messageSenderSimplyId}': { reason: SENDERS },
  'GET /v1/message-senders/domains': { reason: SENDERS },
  'POST /v1/message-senders/domains': { reason: SENDERS },
  'POST /v1/message-senders/domains/{mailDomainSimplyId}/verify': { reason: SENDERS },
  'DELETE /v1/message-senders/domains/{mailDomainSimplyId}': { reason: SENDERS },
  'POST /v1/auth/login/mfa': { reason: `second step (TOTP code or recovery code) of ${FIRST_PARTY_SIGN_IN}`, public: true },
  'POST /v1/auth/refresh': { reason: `refresh of ${FIRST_PARTY_SIGN_IN}`, public: true },
  'POST /v1/auth/logout': { reason: `sign-out of ${FIRST_PARTY_SIGN_IN}`, public: true },
  'GET /v1/api-keys': { reason: API_KEY_ADMIN },
  'GET /v1/api-keys/{apiKeySimplyId}': { reason: API_KEY_ADMIN },
  'PATCH /v1/api-keys/{apiKeySimplyId}': { reason: API_KEY_ADMIN },
  'DELETE /v1/api-keys/{apiKeySimplyId}': { reason: API_KEY_ADMIN },
  'GET /v1/team-roles': { reason: TEAM_ROLES },
  'POST /v1/team-roles': { reason: TEAM_ROLES },
  'GET /v1/team-roles/{teamRoleSimplyId}': { reason: TEAM_ROLES },
  'PUT /v1/team-roles/{teamRoleSimplyId}': { reason: TEAM_ROLES },
  'DELETE /v1/team-roles/{teamRoleSimplyId}': { reason: TEAM_ROLES },
  'PATCH /v1/data-collections/{dataCollectionSimplyId}': {
    reason: 'partial update of a collection (archetype, name formula, filter criteria, parent); the route checklist only renames (docs/api/data-collections.md)',
  },
  'POST /v1/data-collections/{dataCollectionSimplyId}/archive': { reason: 'archive and restore a collection (docs/api/data-collections.md)' },
  'POST /v1/data-collections/{dataCollectionSimplyId}/fields': { reason: FIELD_ADMIN },
  'PATCH /v1/data-collections/{dataCollectionSimplyId}/fields/{dataFieldSimplyId}': { reason: FIELD_ADMIN },
  'DELETE /v1/data-collections/{dataCollectionSimplyId}/fields/{dataFieldSimplyId}': { reason: FIELD_ADMIN },
  'PUT /v1/data-collections/{dataCollectionSimplyId}/fields/reorder': { reason: FIELD_ADMIN },
  'GET /v1/mail-messages': { reason: MAIL },
  'GET /v1/mail-messages/{mailSimplyId}': { reason: MAIL },
  'GET /v1/message-suppressions': { reason: SUPPRESSIONS },
  'POST /v1/message-suppressions': { reason: SUPPRESSIONS },
  'DELETE /v1/message-suppressions/{address}': { reason: SUPPRESSIONS },
  'GET /v1/signing': { reason: SIGNER_LINK, public: true },
  'POST /v1/signing/sign': { reason: SIGNER_LINK, public: true },
  'POST /v1/signing/decline': { reason: SIGNER_LINK, public: true },
};
