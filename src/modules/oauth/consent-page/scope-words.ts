// Each OAuth scope in the words the consent page shows a person.
import type { OauthScope } from '../../../app/auth/oauth-scopes.ts';

export const SCOPE_WORDS: Record<OauthScope, string> = {
  'schema:read': "See the team's collections and their fields",
  'records:read': 'Read records',
  'records:write': 'Create, change and delete records',
  'websites:read': "See the team's websites",
  'websites:write': "Change the team's websites",
  'conversations:read': 'Read conversations',
  'conversations:write': 'Write in conversations',
  'files:write': 'Upload and replace files',
  'wizards:run': 'Run data-entry wizards',
  'admin:read': "See the team's administration settings",
  'identity:read': 'See your name and email address',
};
