// The scope-auth vocabulary: credential kinds, tiers, feature permissions, OAuth scopes and
// data permissions (Document 1 §1.4, §2.1, §5). Gate scopes throw the precise documented error;
// `pickAuthError` chooses which error a denied field reports.
import { AuthScopeFailureType, type AuthFailure } from '@pothos/plugin-scope-auth';
import type { FeatureLevel } from './feature-permissions.ts';
import type { OauthScope } from './oauth-scopes.ts';
import {
  hasDataAccess,
  hasFeature,
  hasFullDataAccess,
  hasScope,
  isScopedToken,
  type CredentialKind,
  type DataLevel,
} from './principal.ts';
import {
  ApiError,
  ConstituentTokenNotAllowedError,
  ConstituentTokenRequiredError,
  IdpRequiredError,
  InvalidTeamSelectionError,
  OAuthClientForbiddenError,
  OAuthScopeRequiredError,
  PermissionDeniedError,
  UnauthenticatedError,
  WidgetVisitorTokenNotAllowedError,
  WidgetVisitorTokenRequiredError,
} from '../errors.ts';
import type { RequestContext } from '../context.ts';

export interface AuthScopes {
  /** any valid credential */
  authenticated: boolean;
  /** a signed-in first-party user (JWT); anything else gets IDP_REQUIRED */
  signedInUser: boolean;
  /** a signed-in first-party user (JWT), or an allowlisted first-party native OAuth client, for protected history reads; anything else gets PROTECTED_HISTORY_AUTH_REQUIRED */
  protectedHistoryUser: boolean;
  /** one of these credential kinds */
  credential: readonly CredentialKind[];
  /** a usable team context: the key's team, or the user's selected team where they are an active member */
  team: boolean;
  /** privileged tier: never scoped tokens (session tokens, OAuth tokens) */
  privileged: boolean;
  /** operations that name no OAuth scope: never an OAuth token (docs/api/oauth.md "What a token reaches") */
  notOAuth: boolean;
  /** an OAuth token of a first-party client (a user token of the platform's own apps); other credentials: not this way */
  firstPartyApp: boolean;
  /** the caller's own identity: any credential, an OAuth token only from a first-party client with identity:read */
  identity: boolean;
  /** a signed-in user, or an OAuth token of a first-party client allowed for the team assistant, with identity:read */
  assistantCaller: boolean;
  /** a person: a signed-in user, or an OAuth token the user consented to (any client); API keys and session tokens get IDP_REQUIRED */
  userBacked: boolean;
  /**
   * space bookings' source connections: an OAuth token of a first-party client allowed for svc-spaces;
   * CLIENT_OR_ADMIN also lets a signed-in team admin in over GraphQL (connection setup). Anything else:
   * SVC_SPACES_OAUTH_CLIENT_REQUIRED
   */
  spacesCaller: 'CLIENT' | 'CLIENT_OR_ADMIN';
  feature: { name: string; level: FeatureLevel };
  oauthScope: OauthScope;
  data: { collection: string; level: DataLevel };
  dataFullAccess: 'READ' | 'EDIT';
  teamAdmin: boolean;
  systemAdmin: boolean;
  /** a constituent's token */
  constituent: boolean;
  /** a chat widget visitor's token */
  widgetVisitor: boolean;
  /** anyone, with or without a credential */
  public: boolean;
}

export function authScopes(ctx: RequestContext) {
  const p = ctx.principal;
  // every tier but `constituent`, `widgetVisitor` and `public` starts here, so a constituent's or a
  // widget visitor's token is refused by all of them
  const authenticated = () => {
    if (p.kind === 'ANONYMOUS') throw new UnauthenticatedError();
    return notConstituent();
  };
  const notConstituent = () => {
    if (p.kind === 'CONSTITUENT') throw new ConstituentTokenNotAllowedError();
    if (p.kind === 'WIDGET_VISITOR') throw new WidgetVisitorTokenNotAllowedError();
    return true;
  };
  return {
    authenticated,
    signedInUser: () => {
      authenticated();
      if (p.kind !== 'USER') throw new IdpRequiredError();
      // a team that was asked for but cannot be used is refused even where the team is optional
      if (p.teamError instanceof PermissionDeniedError || p.teamError instanceof InvalidTeamSelectionError) throw p.teamError;
      return true;
    },
    protectedHistoryUser: () => {
      authenticated();
      // an allowlisted first-party native client: a first-party client operators allowed for the team assistant
      if (p.kind === 'OAUTH' && p.oauth?.firstParty && p.oauth.allowances.includes('team-assistant')) return true;
      if (p.kind !== 'USER') throw new ProtectedHistoryAuthRequiredError();
      return true;
    },
    credential: (kinds: readonly CredentialKind[]) => authenticated() && kinds.includes(p.kind as CredentialKind),
    team: () => {
      authenticated();
      if (p.teamError) throw p.teamError;
      return p.team !== null;
    },
    privileged: () => authenticated() && !isScopedToken(p),
    notOAuth: () => {
      if (p.kind === 'OAUTH') throw new PermissionDeniedError('This operation is not available to OAuth access tokens');
      return true;
    },
    firstPartyApp: () => {
      if (p.kind !== 'OAUTH') return false;
      if (!p.oauth?.firstParty) throw new OAuthClientForbiddenError('This operation accepts OAuth tokens of first-party applications only');
      return true;
    },
    identity: () => {
      if (p.kind !== 'OAUTH') return true;
      if (!p.oauth?.firstParty) throw new OAuthClientForbiddenError('The user\'s identity is for first-party applications only');
      if (!hasScope(p, 'identity:read')) throw new OAuthScopeRequiredError('identity:read');
      return true;
    },
    assistantCaller: () => {
      authenticated();
      if (p.kind === 'OAUTH') {
        if (!p.oauth?.firstParty || !p.oauth.allowances.includes('team-assistant')) {
          throw new OAuthClientForbiddenError('The team assistant accepts OAuth tokens of first-party clients allowed for it only');
        }
        if (!hasScope(p, 'identity:read')) throw new OAuthScopeRequiredError('identity:read');
        return true;
      }
      if (p.kind !== 'USER') throw new IdpRequiredError('The team assistant is for signed-in users; API keys and session tokens cannot use it');
      return true;
    },
    spacesCaller: (who: 'CLIENT' | 'CLIENT_OR_ADMIN') => {
      authenticated();
      if (p.kind === 'OAUTH' && p.oauth?.firstParty && p.oauth.allowances.includes('svc-spaces')) return true;
      if (who === 'CLIENT_OR_ADMIN' && p.kind === 'USER' && ctx.source !== 'REST' && (p.isTeamAdmin || p.isSystemAdmin)) return true;
      throw new SpacesOAuthClientRequiredError();
    },
    userBacked: () => {
      authenticated();
      if (p.kind !== 'USER' && p.kind !== 'OAUTH') throw new IdpRequiredError('This operation is for signed-in users and the OAuth tokens they consent to; API keys and session tokens cannot use it');
      return true;
    },
    feature: ({ name, level }: { name: string; level: FeatureLevel }) => notConstituent() && hasFeature(p, name, level),
    oauthScope: (scope: OauthScope) => notConstituent() && hasScope(p, scope),
    data: ({ collection, level }: { collection: string; level: DataLevel }) => notConstituent() && hasDataAccess(p, collection, level),
    dataFullAccess: (level: 'READ' | 'EDIT') => notConstituent() && hasFullDataAccess(p, level),
    // functions, not booleans: scope-auth checks plain booleans first, so an anonymous caller would get 403, not 401
    teamAdmin: () => authenticated() && (p.isTeamAdmin || p.isSystemAdmin),
    systemAdmin: () => authenticated() && p.isSystemAdmin,
    constituent: () => {
      if (p.kind === 'ANONYMOUS') throw new UnauthenticatedError();
      if (p.kind !== 'CONSTITUENT') throw new ConstituentTokenRequiredError();
      return true;
    },
    widgetVisitor: () => {
      if (p.kind === 'ANONYMOUS') throw new UnauthenticatedError();
      if (p.kind !== 'WIDGET_VISITOR' || !p.widgetVisitor) throw new WidgetVisitorTokenRequiredError();
      return true;
    },
    public: true,
  };
}

const PRIORITY = [
  'UNAUTHENTICATED',
  'VALIDATION_ERROR',
  'CONSTITUENT_TOKEN_NOT_ALLOWED',
  'CONSTITUENT_TOKEN_REQUIRED',
  'WIDGET_VISITOR_TOKEN_NOT_ALLOWED',
  'WIDGET_VISITOR_TOKEN_REQUIRED',
  // an OAuth token refused for what it is, rather than as "not a signed-in user"
  'OAUTH_CLIENT_FORBIDDEN',
  'OAUTH_SCOPE_REQUIRED',
  'IDP_REQUIRED',
  'PROTECTED_HISTORY_AUTH_REQUIRED',
  'PERMISSION_DENIED',
];

/**
 * Protected snapshots (the exact address, the rendered content of what a constituent was sent) are
 * for people signed in to the platform, never for integrations: an API key, a session token or an
 * OAuth client is refused whatever its permissions.
 */
export class ProtectedHistoryAuthRequiredError extends ApiError {
  constructor() {
    super(403, 'PROTECTED_HISTORY_AUTH_REQUIRED', 'The protected communication history is readable by signed-in team users only; API keys, session tokens and OAuth clients cannot read it');
  }
}

/** Source-connection routes of space bookings take the spaces app's OAuth tokens only (Document 3 §5), API keys included. */
export class SpacesOAuthClientRequiredError extends ApiError {
  constructor() {
    super(403, 'SVC_SPACES_OAUTH_CLIENT_REQUIRED', 'Source-connection routes accept only an OAuth access token of a first-party client allowed for svc-spaces');
  }
}

/** The most fundamental problem wins: no credential, then no team, then wrong kind, then missing permission. */
export function pickAuthError(failure: AuthFailure): Error {
  const found: ApiError[] = [];
  const walk = (f: AuthFailure) => {
    if ('error' in f && f.error instanceof ApiError) found.push(f.error);
    if (f.kind === AuthScopeFailureType.AnyAuthScopes || f.kind === AuthScopeFailureType.AllAuthScopes) {
      for (const child of f.failures) walk(child);
    }
  };
  walk(failure);
  const rank = (e: ApiError) => {
    const i = PRIORITY.indexOf(e.code);
    return i === -1 ? PRIORITY.length : i;
  };
  found.sort((a, b) => rank(a) - rank(b));
  return found[0] ?? new PermissionDeniedError();
}
