// Who sees which conversations (docs/api/conversations.md "Who may call what"). The tiers of the
// schema check the credential, the team and the OAuth scope; here the feature permissions, which
// the inbox combines (either of two features, each with its own reach):
//
//   table routes (/v1/conversations…)  DATA_CONVERSATIONS_VIEW (VIEW to read, EDIT to write): team-wide
//   inbox routes (/v1/conversations/inbox…)
//     DATA_CONVERSATION_INBOX_VIEW_ALL   team-wide
//     DATA_CONVERSATION_INBOX_VIEW       the caller's own conversations and the unassigned ones
//   (VIEW to read and to change only one's own state, read position or following; EDIT to post and
//   to change a conversation)
//
// A conversation the caller may not see answers 404, exactly like one that does not exist.
import { hasFeature } from '../../app/auth/principal.ts';
import type { FeatureLevel } from '../../app/auth/feature-permissions.ts';
import type { RequestContext } from '../../app/context.ts';
import { IdpRequiredError, PermissionDeniedError } from '../../app/errors.ts';

export const TABLE_FEATURE = 'DATA_CONVERSATIONS_VIEW';
export const INBOX_FEATURE = 'DATA_CONVERSATION_INBOX_VIEW';
export const INBOX_ALL_FEATURE = 'DATA_CONVERSATION_INBOX_VIEW_ALL';

/** What the caller sees: every conversation of the team, or its own (assigned to `userId`) and the unassigned ones. */
export type Visibility = { reach: 'ALL' } | { reach: 'OWN'; userId: bigint | null };

export const ALL: Visibility = { reach: 'ALL' };

/** The inbox reach of the caller at `level`; 403 PERMISSION_DENIED with neither inbox feature. */
export function inboxVisibility(ctx: RequestContext, level: FeatureLevel): Visibility {
  const p = ctx.principal;
  if (hasFeature(p, INBOX_ALL_FEATURE, level)) return ALL;
  if (hasFeature(p, INBOX_FEATURE, level)) return { reach: 'OWN', userId: p.userId };
  throw new PermissionDeniedError(`The inbox needs the ${INBOX_FEATURE} or ${INBOX_ALL_FEATURE} feature permission${level === 'EDIT' ? ' at edit level' : ''}`);
}

/**
 * What a realtime subscriber may hear about: the table's team-wide reach, else the inbox's; 403
 * with none of the three features.
 */
export function subscriberVisibility(ctx: RequestContext): Visibility {
  if (hasFeature(ctx.principal, TABLE_FEATURE, 'VIEW')) return ALL;
  return inboxVisibility(ctx, 'VIEW');
}

/** Whether a conversation assigned to `assignedUserId` (null: unassigned) is within `visibility`. */
export function canSee(visibility: Visibility, assignedUserId: bigint | null): boolean {
  if (visibility.reach === 'ALL') return true;
  return assignedUserId === null || (visibility.userId !== null && assignedUserId === visibility.userId);
}

/**
 * The person behind the credential: a signed-in user or an OAuth token (the consenting user). API
 * keys and the session tokens they mint act for nobody: 403 IDP_REQUIRED, before anything is read.
 */
export function requirePerson(ctx: RequestContext, what: string): bigint {
  const userId = ctx.principal.userId;
  if (userId === null || (ctx.principal.kind !== 'USER' && ctx.principal.kind !== 'OAUTH')) {
    throw new IdpRequiredError(`${what} belongs to a person: sign in (or use an OAuth token); API keys and session tokens act for nobody`);
  }
  return userId;
}

/** The caller's person, or null for credentials that act for nobody (API keys, session tokens). */
export function personOf(ctx: RequestContext): bigint | null {
  const p = ctx.principal;
  return p.kind === 'USER' || p.kind === 'OAUTH' ? p.userId : null;
}

/** Who did something, as stored on rows and told in events. */
export function actorOf(ctx: RequestContext): { kind: string; id: string | null } {
  const p = ctx.principal;
  // a person is named by their user id (a signed-in user, an OAuth token), anything else by its credential
  return { kind: p.kind, id: (p.kind === 'USER' || p.kind === 'OAUTH') && p.userSimplyId ? p.userSimplyId : p.credentialId };
}
