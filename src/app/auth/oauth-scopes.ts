// OAuth scopes (Document 1 §5 rule 3). Session tokens and OAuth tokens carry a subset;
// API keys and signed-in users are not scope-limited.
export const OAUTH_SCOPES = [
  'schema:read',
  'records:read',
  'records:write',
  'websites:read',
  'websites:write',
  'conversations:read',
  'conversations:write',
  'files:write',
  'wizards:run',
  'admin:read',
  'identity:read',
] as const;

export type OauthScope = (typeof OAUTH_SCOPES)[number];

export const DEFAULT_SESSION_SCOPES: OauthScope[] = ['schema:read', 'records:read'];

const known = new Set<string>(OAUTH_SCOPES);

export function isOauthScope(value: string): value is OauthScope {
  return known.has(value);
}
