// Turns credential rows into Principals. Pure functions: easy to reason about and test.
import { DATA_FULL_ACCESS, parseFeatureString, type FeatureLevel } from './feature-permissions.ts';
import type { OauthScope } from './oauth-scopes.ts';
import type { DataGrants, DataLevel, FieldLevel, Principal, TeamRef } from './principal.ts';

export interface RoleRow {
  simplyId: string;
  dataFullAccess: 'READ' | 'EDIT' | null;
  featurePermissions: unknown;
  dataPermissions: { dataCollectionSimplyId: string; level: DataLevel }[];
  fieldPermissions?: { dataFieldSimplyId: string; level: FieldLevel }[];
}

export function dataGrantsOf(role: RoleRow | null): DataGrants | null {
  if (!role) return null;
  const collections = new Map<string, Set<DataLevel>>();
  for (const p of role.dataPermissions) {
    let set = collections.get(p.dataCollectionSimplyId);
    if (!set) collections.set(p.dataCollectionSimplyId, (set = new Set()));
    set.add(p.level);
  }
  const fields = new Map((role.fieldPermissions ?? []).map((f) => [f.dataFieldSimplyId, f.level]));
  return { full: role.dataFullAccess, collections, fields };
}

export function roleFeatures(role: RoleRow | null): Map<string, FeatureLevel> {
  const features = new Map<string, FeatureLevel>();
  if (!role) return features;
  const list = Array.isArray(role.featurePermissions) ? role.featurePermissions : [];
  for (const item of list as { name?: unknown; level?: unknown }[]) {
    if (typeof item?.name !== 'string') continue;
    mergeFeature(features, item.name, item.level === 'VIEW' ? 'VIEW' : 'EDIT');
  }
  if (role.dataFullAccess) mergeFeature(features, DATA_FULL_ACCESS, role.dataFullAccess === 'EDIT' ? 'EDIT' : 'VIEW');
  return features;
}

export function featureStrings(list: readonly string[]): Map<string, FeatureLevel> {
  const features = new Map<string, FeatureLevel>();
  for (const value of list) {
    const { name, level } = parseFeatureString(value);
    mergeFeature(features, name, level);
  }
  return features;
}

function mergeFeature(map: Map<string, FeatureLevel>, name: string, level: FeatureLevel): void {
  if (map.get(name) !== 'EDIT') map.set(name, level);
}

export interface ApiKeyRow {
  id: bigint;
  simplyId: string;
  featurePermissions: string[];
  expiresAt: Date | null;
  team: TeamRef;
  role: RoleRow | null;
}

export function apiKeyPrincipal(key: ApiKeyRow): Principal {
  const features = featureStrings(key.featurePermissions);
  // a key's full data access comes from its role (Document 1 §2.1), so it shows as a feature too
  if (key.role?.dataFullAccess) features.set(DATA_FULL_ACCESS, key.role.dataFullAccess === 'EDIT' ? 'EDIT' : 'VIEW');
  return {
    kind: 'API_KEY',
    credentialId: key.simplyId,
    userId: null,
    userSimplyId: null,
    apiKeyId: key.id,
    isSystemAdmin: false,
    isTeamAdmin: false,
    team: key.team,
    teamError: null,
    features,
    scopes: null,
    data: dataGrantsOf(key.role),
    teamRoleSimplyId: key.role?.simplyId ?? null,
    expiresAt: key.expiresAt,
  };
}

export interface SessionTokenRow {
  simplyId: string;
  featurePermissions: string[];
  oauthScopes: string[];
  expiresAt: Date;
  apiKey: ApiKeyRow;
}

/** Document 1 §5 rule 2: inherits the key's role; full data access only with DATA_FULL_ACCESS in the token. */
export function sessionTokenPrincipal(token: SessionTokenRow): Principal {
  // narrowing only, against the key as it is now: a key narrowed after minting narrows its tokens too
  const keyFeatures = apiKeyPrincipal(token.apiKey).features;
  const features = new Map<string, FeatureLevel>();
  for (const [name, level] of featureStrings(token.featurePermissions)) {
    const held = keyFeatures.get(name);
    if (held) features.set(name, held === 'EDIT' ? level : 'VIEW');
  }
  const inherited = dataGrantsOf(token.apiKey.role);
  const tokenFull = features.get(DATA_FULL_ACCESS);
  let data = inherited;
  if (inherited?.full) {
    // full access survives only as far as the token's own DATA_FULL_ACCESS entry allows
    const full = !tokenFull ? null : tokenFull === 'VIEW' ? 'READ' : inherited.full;
    data = { ...inherited, full };
  }
  const keyExpiry = token.apiKey.expiresAt;
  return {
    kind: 'SESSION_TOKEN',
    credentialId: token.simplyId,
    userId: null,
    userSimplyId: null,
    apiKeyId: token.apiKey.id,
    isSystemAdmin: false,
    isTeamAdmin: false,
    team: token.apiKey.team,
    teamError: null,
    features,
    scopes: new Set(token.oauthScopes as OauthScope[]),
    data,
    teamRoleSimplyId: token.apiKey.role?.simplyId ?? null,
    expiresAt: keyExpiry && keyExpiry < token.expiresAt ? keyExpiry : token.expiresAt,
  };
}
