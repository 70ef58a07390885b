// The authorization tiers the interface documents name, declared once. Every schema field's
// `authScopes` is one of these (or a documented combination of them); no area declares its own.
// The scopes they combine are defined in auth-scopes.ts.
import type { FeatureLevel } from './feature-permissions.ts';
import type { OauthScope } from './oauth-scopes.ts';

/** Standard: any credential with a usable team context (API key, session token, signed-in member); no OAuth token, as it names no scope. */
const standard = { $all: { team: true, notOAuth: true } } as const;

/**
 * Standard, where the operation checks the OAuth scope of what it touches itself (the data
 * kernel: records:read, records:write, schema:read), so OAuth tokens reach it within their scopes.
 */
const standardDataScoped = { team: true } as const;

/** Standard with an OAuth scope: scoped tokens (session, OAuth) must carry the scope; keys and users are not scope-limited. */
const standardScoped = (scope: OauthScope) => ({ $all: { team: true, oauthScope: scope } }) as const;

/** Standard with a feature permission (API keys and session tokens allowed; no OAuth token, as it names no scope). */
const standardFeature = (name: string, level: FeatureLevel) => ({ $all: { team: true, notOAuth: true, feature: { name, level } } }) as const;

/** Privileged: team context, never a scoped token, and the feature permission at the level (team admins hold every feature). */
const privileged = (name: string, level: FeatureLevel) => ({ $all: { team: true, privileged: true, feature: { name, level } } }) as const;

/** Team administration: a team admin, or TEAM_SETTINGS at the level; never a scoped token. */
const teamSettings = (level: FeatureLevel) =>
  ({ $all: { team: true, privileged: true, $any: { teamAdmin: true, feature: { name: 'TEAM_SETTINGS', level } } } }) as const;

/** A signed-in first-party user (JWT); API keys and session tokens get IDP_REQUIRED. No team needed, but a selected team must be one of theirs (403). */
const signedInUser = { signedInUser: true } as const;

/** A signed-in user acting in a selected team where they are an active member. */
const signedInMember = { $all: { team: true, signedInUser: true } } as const;

/**
 * As signedInMember, or an OAuth user token of a first-party application (its team is the one the
 * user chose at consent). API keys and session tokens: IDP_REQUIRED; other OAuth clients:
 * OAUTH_CLIENT_FORBIDDEN.
 */
const signedInMemberOrFirstPartyApp = { $all: { team: true, $any: { signedInUser: true, firstPartyApp: true } } } as const;

/** The caller's own identity: any credential, and an OAuth token of a first-party application with identity:read. */
const identity = { $all: { authenticated: true, identity: true } } as const;

/** Standard with an OAuth scope and a feature permission (API keys, scoped tokens carrying the scope, and users). */
const standardScopedFeature = (scope: OauthScope, name: string, level: FeatureLevel) =>
  ({ $all: { team: true, oauthScope: scope, feature: { name, level } } }) as const;

/**
 * Protected history: a signed-in member of the selected team with the feature permission, or an
 * allowlisted first-party native OAuth client (first-party, allowed for the team assistant) with
 * records:read. API keys, session tokens and other OAuth clients get 403
 * PROTECTED_HISTORY_AUTH_REQUIRED even with the permission (the credential kind is checked before
 * the permission).
 */
const protectedHistory = (name: string, level: FeatureLevel) =>
  ({ $all: { team: true, protectedHistoryUser: true, oauthScope: 'records:read', feature: { name, level } } }) as const;

/**
 * The team assistant: a signed-in member of the selected team, or an OAuth token of a first-party
 * client allowed for the assistant that carries identity:read (its team is the one chosen at
 * consent). API keys and session tokens: IDP_REQUIRED; other OAuth clients: OAUTH_CLIENT_FORBIDDEN;
 * an allowed client without identity:read: OAUTH_SCOPE_REQUIRED. The assistant's feature
 * permissions are checked by its service (TEAM_AGENT_PERMISSION_DENIED).
 */
const teamAssistant = { $all: { team: true, assistantCaller: true } } as const;

/**
 * The assistant's settings (privileged): team context and never a scoped token; the service then
 * requires a Team Admin or edit-level TEAM_ADMIN_AGENT_USE (TEAM_AGENT_SETTINGS_DENIED).
 */
const teamAssistantSettings = { $all: { team: true, privileged: true } } as const;

/**
 * Websites: a person acting in the selected team, as a signed-in user or through an OAuth token
 * they consented to (any client, e.g. a hosted MCP client) carrying `scope`. API keys and session
 * tokens: IDP_REQUIRED. The feature permissions (TEAM_WEBSITES or TEAM_ADMIN_WEBSITES) and the
 * per-website role are the websites area's own check, as they combine either feature with the site.
 */
const websites = (scope: OauthScope) => ({ $all: { team: true, userBacked: true, oauthScope: scope } }) as const;

/**
 * Space bookings' source connections: the team of an OAuth token issued to a first-party client
 * allowed for svc-spaces (`svc oauth-clients create … --first-party --allow svc-spaces`); every other credential, API keys
 * included, gets SVC_SPACES_OAUTH_CLIENT_REQUIRED. The connection setup fields also admit a signed-in
 * team admin over GraphQL. Feature permissions (SVC_SPACES_VIEW, SVC_SPACES_MANAGE) are the area's check.
 */
const svcSpaces = { $all: { team: true, spacesCaller: 'CLIENT' } } as const;
const svcSpacesSetup = { $all: { team: true, spacesCaller: 'CLIENT_OR_ADMIN' } } as const;

/** Only API keys of the team (e.g. minting session tokens). */
const apiKey = { $all: { team: true, credential: ['API_KEY'] } } as const;

/** Any valid credential but an OAuth token, with or without a team (the caller's own identity). */
const authenticated = { $all: { authenticated: true, notOAuth: true } } as const;

/** A platform operator. */
const systemAdmin = { $all: { authenticated: true, systemAdmin: true } } as const;

/** A constituent (an end user of a team, signed in through constituent authentication). */
const constituent = { constituent: true } as const;

/** A chat widget's visitor (a visitor token, docs/api/conversations.md "Chat widget"): that visitor's own widget conversations only. */
const widgetVisitor = { widgetVisitor: true } as const;

/** Public: no credential (a public link, a signed URL, a login form); the operation checks its own token if any. */
const publicLink = { public: true } as const;

export const tier = {
  standard,
  standardDataScoped,
  standardScoped,
  standardFeature,
  standardScopedFeature,
  protectedHistory,
  teamAssistant,
  teamAssistantSettings,
  websites,
  svcSpaces,
  svcSpacesSetup,
  privileged,
  teamSettings,
  signedInUser,
  signedInMember,
  signedInMemberOrFirstPartyApp,
  identity,
  apiKey,
  authenticated,
  systemAdmin,
  constituent,
  widgetVisitor,
  publicLink,
};
