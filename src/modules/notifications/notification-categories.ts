// Every notification type and the preference category that governs it (docs/api/notifications.md
// "Types and categories"). A device that turns a category off neither lists, counts nor receives
// pushes for its types.
export const PREFERENCE_KEYS = ['newConversation', 'newMessage', 'assignment', 'mention', 'system', 'workflow'] as const;
export type PreferenceKey = (typeof PREFERENCE_KEYS)[number];
export type Preferences = Record<PreferenceKey, boolean>;

export const NOTIFICATION_CATEGORIES = {
  NEW_CONVERSATION: 'newConversation',
  NEW_MESSAGE: 'newMessage',
  ASSIGNMENT: 'assignment',
  MENTION: 'mention',
  SYSTEM: 'system',
  REPORT_SNAPSHOT: 'system',
  APPROVAL_REQUEST: 'system',
  BACKGROUND_TASK_COMPLETED: 'system',
  BACKGROUND_TASK_FAILED: 'system',
  BACKGROUND_TASK_PARTIAL_SUCCESS: 'system',
  WORKFLOW: 'workflow',
  TEAM_GENERATED: 'workflow',
} as const satisfies Record<string, PreferenceKey>;

export type NotificationType = keyof typeof NOTIFICATION_CATEGORIES;
export const NOTIFICATION_TYPES = Object.keys(NOTIFICATION_CATEGORIES) as NotificationType[];

export function categoryOf(type: NotificationType): PreferenceKey {
  return NOTIFICATION_CATEGORIES[type];
}

export function isNotificationType(value: string): value is NotificationType {
  return Object.hasOwn(NOTIFICATION_CATEGORIES, value);
}

/** Stored preferences (absent keys are on) as the full six-key object. */
export function fullPreferences(stored: unknown): Preferences {
  const given = stored && typeof stored === 'object' ? (stored as Partial<Record<string, unknown>>) : {};
  return Object.fromEntries(PREFERENCE_KEYS.map((key) => [key, given[key] !== false])) as Preferences;
}

/** Whether stored preferences let a notification of `category` through (absent keys are on). */
export function allowsCategory(stored: unknown, category: string): boolean {
  return fullPreferences(stored)[category as PreferenceKey] !== false;
}

/** The categories a device has turned off. */
export function disabledCategories(stored: unknown): PreferenceKey[] {
  const prefs = fullPreferences(stored);
  return PREFERENCE_KEYS.filter((key) => !prefs[key]);
}
