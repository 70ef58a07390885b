// The catalogue of feature permissions (feature/admin areas a credential may call).
// Names come from the interface documents; a role or key naming anything else is rejected.
export const FEATURE_PERMISSIONS = [
  'TEAM_SETTINGS',
  'TEAM_ADMIN_API_KEYS',
  'TEAM_ADMIN_USER_ROLES',
  'TEAM_ADMIN_USERS',
  'TEAM_ADMIN_DATA_WIZARDS',
  'TEAM_ADMIN_MEDIA_LIBRARY',
  'TEAM_ADMIN_SVC_TAGS',
  'TEAM_ADMIN_WEBSITES',
  'TEAM_ADMIN_CONTENT_TEMPLATE_LIBRARY',
  'TEAM_ADMIN_AGENT_USE',
  'TEAM_AGENT_USE',
  'TEAM_WEBSITES',
  'OUTGOING_MESSAGES_VIEW',
  'OUTGOING_MESSAGES_SEND',
  'OUTGOING_MESSAGES_TEMPLATES',
  'DATA_CONVERSATIONS_VIEW',
  'DATA_CONVERSATION_INBOX_VIEW',
  'DATA_CONVERSATION_INBOX_VIEW_ALL',
  'CONSTITUENT_MESSAGE_HISTORY_VIEW',
  'DATA_EXPORT',
  'SVC_SPACES_VIEW',
  'SVC_SPACES_MANAGE',
] as const;

export type FeaturePermissionName = (typeof FEATURE_PERMISSIONS)[number];
export type FeatureLevel = 'VIEW' | 'EDIT';

/**
 * DATA_FULL_ACCESS is not an area of its own: it marks a credential whose team role grants full
 * data access. It may appear in key and session-token feature lists (Document 1 §5 rule 2).
 */
export const DATA_FULL_ACCESS = 'DATA_FULL_ACCESS';

const known = new Set<string>(FEATURE_PERMISSIONS);

export function isFeaturePermission(name: string): name is FeaturePermissionName {
  return known.has(name);
}

export function levelSatisfies(granted: FeatureLevel | undefined, required: FeatureLevel): boolean {
  if (!granted) return false;
  return required === 'VIEW' || granted === 'EDIT';
}

/**
 * API keys and session tokens carry feature permissions as strings (Document 1 §2.1):
 * `NAME` grants edit level, `NAME:VIEW` view level only.
 */
export function parseFeatureString(value: string): { name: string; level: FeatureLevel } {
  const [name = '', level] = value.split(':');
  return { name, level: level === 'VIEW' ? 'VIEW' : 'EDIT' };
}

export function formatFeatureString(name: string, level: FeatureLevel): string {
  return level === 'VIEW' ? `${name}:VIEW` : name;
}
