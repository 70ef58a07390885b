// Which OAuth scopes an API key can hand to the session tokens it mints. A key is not
// scope-limited itself; its scopes follow from what it may actually do, so a token never
// claims a scope its creator could not use (Document 1 §5 rule 2: those are silently dropped).
import { DATA_FULL_ACCESS, FEATURE_PERMISSIONS } from '../../app/auth/feature-permissions.ts';
import type { OauthScope } from '../../app/auth/oauth-scopes.ts';
import { hasFeature, type Principal } from '../../app/auth/principal.ts';

export function creatorScopes(p: Principal): Set<OauthScope> {
  const scopes = new Set<OauthScope>(['schema:read']);
  const data = p.data;
  if (data) {
    scopes.add('records:read');
    const levels = [...data.collections.values()].flatMap((s) => [...s]);
    if (data.full === 'EDIT' || levels.includes('EDIT')) scopes.add('records:write');
    if (data.full === 'EDIT' || levels.includes('RUN')) scopes.add('wizards:run');
  }
  if (hasFeature(p, 'TEAM_WEBSITES', 'VIEW') || hasFeature(p, 'TEAM_ADMIN_WEBSITES', 'VIEW')) scopes.add('websites:read');
  if (hasFeature(p, 'TEAM_WEBSITES', 'EDIT') || hasFeature(p, 'TEAM_ADMIN_WEBSITES', 'EDIT')) scopes.add('websites:write');
  if (hasFeature(p, 'DATA_CONVERSATIONS_VIEW', 'VIEW')) scopes.add('conversations:read');
  if (hasFeature(p, 'DATA_CONVERSATIONS_VIEW', 'EDIT')) scopes.add('conversations:write');
  if (hasFeature(p, 'TEAM_ADMIN_MEDIA_LIBRARY', 'EDIT')) scopes.add('files:write');
  if (FEATURE_PERMISSIONS.some((name) => name.startsWith('TEAM_ADMIN_') && hasFeature(p, name, 'VIEW'))) scopes.add('admin:read');
  // identity:read belongs to native first-party clients, never to key-minted tokens
  return scopes;
}

/** The creator's feature permissions as (name → level), DATA_FULL_ACCESS included when its role grants it. */
export function creatorFeatures(p: Principal): Map<string, 'VIEW' | 'EDIT'> {
  const features = new Map(p.features);
  if (p.data?.full) features.set(DATA_FULL_ACCESS, p.data.full === 'EDIT' ? 'EDIT' : 'VIEW');
  return features;
}
