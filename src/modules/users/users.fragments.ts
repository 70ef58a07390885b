// The selections of this area's types that other faces (REST tables, tests) use.
import { fragment, selection } from '../../app/graphql/fragments.ts';

/** A user as the selected team sees them (a membership). */
export const TEAM_USER = fragment('TeamUserFields', 'TeamUser', `id userSimplyId email firstName lastName isTeamAdmin isActive teamRoleSimplyId lastLoggedIn createdAt`);

/** One of a user's team memberships. */
export const USER_TEAM = fragment('UserTeamFields', 'UserTeam', `teamSimplyId name isTeamAdmin isActive teamRoleSimplyId lastOpened`);

/** A user with every membership (user administration). */
export const USER = fragment('UserFields', 'User', selection`id userSimplyId email firstName lastName isSystemAdmin isActive lastLoggedIn createdAt teams { ${USER_TEAM} }`);

/** The user a sign-in session belongs to. */
export const SESSION_USER = fragment('SessionUserFields', 'User', `id userSimplyId email firstName lastName isSystemAdmin teams { teamSimplyId name isTeamAdmin }`);

/** The selected team's role as `users/me?expand=rolePermissions` shows it (the grants, without field permissions). */
export const ROLE_PERMISSIONS = fragment(
  'RolePermissionsFields',
  'TeamRole',
  `id teamRoleSimplyId name dataFullAccess dataPermissions { dataCollectionSimplyId level } featurePermissions { name level }`,
);

/** The effective permissions of the calling credential (`expand=permissionSnapshot`). */
export const PERMISSION_SNAPSHOT = fragment(
  'PermissionSnapshotFields',
  'PermissionSnapshot',
  `credentialKind teamSimplyId isSystemAdmin isTeamAdmin teamRoleSimplyId dataFullAccess hasDataAccess
   featurePermissions { name level } dataPermissions { dataCollectionSimplyId levels } oauthScopes`,
);

/** The variables CURRENT_USER's expansions read; an operation using it declares them. */
export const CURRENT_USER_VARIABLES = '$teams: Boolean!, $rolePermissions: Boolean!, $permissionSnapshot: Boolean!';

/** The signed-in user, with the expansions `users/me` offers switched by CURRENT_USER_VARIABLES. */
export const CURRENT_USER = fragment(
  'CurrentUserFields',
  'CurrentUser',
  selection`id userSimplyId email firstName lastName isTeamAdmin isSystemAdmin defaultInterfaceLanguageId lastLoggedIn createdAt
   selectedTeam { id teamSimplyId name }
   permissions { isTeamAdmin isSystemAdmin }
   teams @include(if: $teams) { ${USER_TEAM} }
   rolePermissions @include(if: $rolePermissions) { ${ROLE_PERMISSIONS} }
   permissionSnapshot @include(if: $permissionSnapshot) { ${PERMISSION_SNAPSHOT} }`,
);

/** One of the current user's devices. */
export const MOBILE_DEVICE = fragment(
  'MobileDeviceFields',
  'MobileDevice',
  `id deviceSimplyId installationId platform deviceName appVersion osVersion pushEnabled activePushTokens lastActiveAt createdAt`,
);

/** A device's push switch and its six notification preference keys. */
export const MOBILE_DEVICE_SETTINGS = fragment(
  'MobileDeviceSettingsFields',
  'MobileDeviceSettings',
  `deviceSimplyId installationId pushEnabled preferences { newConversation newMessage assignment mention system workflow }`,
);

export const RECENT_VISIT = fragment('RecentVisitFields', 'RecentVisit', `id recentVisitSimplyId entityType entityId title url visitedAt`);

export const SIGN_IN_SESSION = fragment('SignInSessionFields', 'SignInSession', `id sessionSimplyId platform deviceName userAgent createdAt lastActiveAt expiresAt isCurrent`);
