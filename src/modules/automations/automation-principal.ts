// Who an automation acts as: not a credential, but the automation itself, with full data access
// of its team (every collection, every field, RUN included) and nothing else: no feature
// permissions, no admin status. Its writes go through the data core like any other (validated,
// audited with actorKind AUTOMATION and the automation's simplyId, evented), and carry the
// loop-guard depth in their domain events (src/modules/records/record-changes.ts).
import type { Principal, TeamRef } from '../../app/auth/principal.ts';
import { systemContext, type RequestContext, type Services } from '../../app/context.ts';

export function automationPrincipal(team: TeamRef, automationSimplyId: string, executionSimplyId: string, depth: number): Principal {
  return {
    kind: 'AUTOMATION',
    credentialId: automationSimplyId,
    userId: null,
    userSimplyId: null,
    apiKeyId: null,
    isSystemAdmin: false,
    isTeamAdmin: false,
    team,
    teamError: null,
    features: new Map(),
    scopes: null,
    data: { full: 'EDIT', collections: new Map([['*', new Set(['READ', 'EDIT', 'RUN'] as const)]]), fields: new Map() },
    teamRoleSimplyId: null,
    expiresAt: null,
    automation: { automationSimplyId, executionSimplyId, depth },
  };
}

/** The context the data core's write functions take, for one execution (audit source JOB, the
 *  execution's simplyId as request id). */
export function automationContext(services: Services, principal: Principal): RequestContext {
  return systemContext(services, principal, principal.automation?.executionSimplyId ?? 'automation');
}
