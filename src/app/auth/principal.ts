// Who is calling, after the credential has been checked: the one object every
// authorization rule (scope-auth, services) reads. Built by resolve-credential.ts.
import type { ApiError } from '../errors.ts';
import { levelSatisfies, type FeatureLevel } from './feature-permissions.ts';
import type { OauthScope } from './oauth-scopes.ts';

/** AUTOMATION: no credential at all; the acting principal of an automation execution (src/modules/automations). */
export type CredentialKind = 'API_KEY' | 'SESSION_TOKEN' | 'USER' | 'OAUTH' | 'CONSTITUENT' | 'PUBLIC_LINK' | 'AUTOMATION' | 'WIDGET_VISITOR';
export type DataLevel = 'READ' | 'EDIT' | 'RUN';

export interface DataGrants {
  /** DATA_FULL_ACCESS at read or edit level, or null */
  full: 'READ' | 'EDIT' | null;
  /** collection simplyId (or "*") → granted levels */
  collections: ReadonlyMap<string, ReadonlySet<DataLevel>>;
  /** field simplyId → narrowed access (NONE hides the field, READ makes it read-only) */
  fields: ReadonlyMap<string, FieldLevel>;
}

export type FieldLevel = 'NONE' | 'READ' | 'EDIT';

export interface TeamRef {
  id: bigint;
  simplyId: string;
  name: string;
}

export interface Principal {
  kind: CredentialKind | 'ANONYMOUS';
  /** public id of the credential: API key simplyId, sess_ id, or user simplyId */
  credentialId: string | null;
  userId: bigint | null;
  userSimplyId: string | null;
  apiKeyId: bigint | null;
  isSystemAdmin: boolean;
  isTeamAdmin: boolean;
  team: TeamRef | null;
  /** why no team is usable (no selection, not a member): thrown by the `team` scope */
  teamError: ApiError | null;
  features: ReadonlyMap<string, FeatureLevel>;
  /** null: not scope-limited (API keys, first-party user tokens) */
  scopes: ReadonlySet<OauthScope> | null;
  /** null: no team role, so no record access at all */
  data: DataGrants | null;
  teamRoleSimplyId: string | null;
  expiresAt: Date | null;
  /** USER principals of the built-in identity provider: the sign-in session of the access token */
  sessionSimplyId?: string | null;
  /** AUTOMATION principals: which automation acts, and the loop-guard depth its writes carry */
  automation?: { automationSimplyId: string; executionSimplyId: string; depth: number };
  /** OAUTH principals: the client the user consented to, and the resource the token was issued for (docs/api/oauth.md) */
  oauth?: OAuthGrantFacts;
  /** CONSTITUENT principals: the signed-in session and the constituent's record (docs/api/constituent-auth.md) */
  constituent?: { sessionId: bigint; sessionSimplyId: string; dataRecordId: bigint };
  /** WIDGET_VISITOR principals: the chat widget and its visitor; they reach that visitor's own conversations only (docs/api/conversations.md "Chat widget") */
  widgetVisitor?: WidgetVisitorFacts;
}

export interface WidgetVisitorFacts {
  widgetId: bigint;
  widgetSimplyId: string;
  visitorId: bigint;
  visitorSimplyId: string;
  isVerified: boolean;
  isSimulated: boolean;
}

export interface OAuthGrantFacts {
  clientId: string;
  grantId: string;
  /** the API (/v1) or the MCP endpoint (/mcp) */
  resource: 'v1' | 'mcp';
  /** an operator's marks on the client (svc oauth-clients --first-party, --allow) */
  firstParty: boolean;
  allowances: readonly string[];
}

export const ANONYMOUS: Principal = Object.freeze({
  kind: 'ANONYMOUS',
  credentialId: null,
  userId: null,
  userSimplyId: null,
  apiKeyId: null,
  isSystemAdmin: false,
  isTeamAdmin: false,
  team: null,
  teamError: null,
  features: new Map(),
  scopes: null,
  data: null,
  teamRoleSimplyId: null,
  expiresAt: null,
}) as Principal;

/** Scoped tokens (session tokens, OAuth tokens) never reach privileged-tier operations. */
export function isScopedToken(p: Principal): boolean {
  return p.kind === 'SESSION_TOKEN' || p.kind === 'OAUTH';
}

export function hasFeature(p: Principal, name: string, level: FeatureLevel): boolean {
  if (p.isSystemAdmin || p.isTeamAdmin) return true;
  return levelSatisfies(p.features.get(name), level);
}

export function hasScope(p: Principal, scope: OauthScope): boolean {
  return p.scopes === null || p.scopes.has(scope);
}

/** EDIT and RUN each imply READ; EDIT does not imply RUN (running a wizard is granted on its own). */
export function hasDataAccess(p: Principal, collectionSimplyId: string, level: DataLevel): boolean {
  if (p.isSystemAdmin || p.isTeamAdmin) return true;
  const data = p.data;
  if (!data) return false;
  if (data.full === 'EDIT' && level !== 'RUN') return true;
  if (data.full === 'READ' && level === 'READ') return true;
  for (const key of [collectionSimplyId, '*']) {
    const levels = data.collections.get(key);
    if (!levels) continue;
    if (levels.has(level)) return true;
    if (level === 'READ' && (levels.has('EDIT') || levels.has('RUN'))) return true;
  }
  return false;
}

/** What the caller may do with one field of a collection it can read: the collection grant,
 *  narrowed by the role's field permission (admins are never narrowed). */
export function fieldAccess(p: Principal, collectionSimplyId: string, fieldSimplyId: string): FieldLevel {
  if (p.isSystemAdmin || p.isTeamAdmin) return 'EDIT';
  if (!hasDataAccess(p, collectionSimplyId, 'READ')) return 'NONE';
  const collectionLevel: FieldLevel = hasDataAccess(p, collectionSimplyId, 'EDIT') ? 'EDIT' : 'READ';
  const narrowed = p.data?.fields.get(fieldSimplyId);
  if (!narrowed) return collectionLevel;
  if (narrowed === 'NONE' || collectionLevel === 'READ') return narrowed === 'NONE' ? 'NONE' : 'READ';
  return narrowed;
}

export function hasFullDataAccess(p: Principal, level: 'READ' | 'EDIT'): boolean {
  if (p.isSystemAdmin || p.isTeamAdmin) return true;
  const full = p.data?.full;
  return full === 'EDIT' || (full === 'READ' && level === 'READ');
}
