// /v1/users → src/users/user.schema.ts
import { bodyObject, defineRoutes, listParam, pageVariables, respondPage } from '../legacy-route.ts';

const TEAM_USER = `id userSimplyId email firstName lastName isTeamAdmin isActive teamRoleSimplyId lastLoggedIn createdAt`;
const ME = `
  id userSimplyId email firstName lastName isTeamAdmin isSystemAdmin defaultInterfaceLanguageId lastLoggedIn createdAt
  selectedTeam { id teamSimplyId name }
  permissions { isTeamAdmin isSystemAdmin }
  teams @include(if: $teams) { teamSimplyId name isTeamAdmin isActive teamRoleSimplyId lastOpened }
  rolePermissions @include(if: $rolePermissions) { id teamRoleSimplyId name dataFullAccess dataPermissions { dataCollectionSimplyId level } featurePermissions { name level } }
  permissionSnapshot @include(if: $permissionSnapshot) {
    credentialKind teamSimplyId isSystemAdmin isTeamAdmin teamRoleSimplyId dataFullAccess hasDataAccess
    featurePermissions { name level } dataPermissions { dataCollectionSimplyId levels } oauthScopes
  }`;
const ME_VARS = `$teams: Boolean!, $rolePermissions: Boolean!, $permissionSnapshot: Boolean!`;
const USER = `id userSimplyId email firstName lastName isSystemAdmin isActive lastLoggedIn createdAt teams { teamSimplyId name isTeamAdmin isActive teamRoleSimplyId lastOpened }`;

const expandVariables = (req: Parameters<typeof listParam>[0]) => {
  const expand = listParam(req, 'expand');
  return { teams: expand.has('teams'), rolePermissions: expand.has('rolePermissions'), permissionSnapshot: expand.has('permissionSnapshot') };
};

export const userRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/v1/users/me',
    summary: 'The signed-in user; expand=teams,rolePermissions,permissionSnapshot',
    operation: `query Me(${ME_VARS}) { me { ${ME} } }`,
    variables: expandVariables,
  },
  {
    method: 'PATCH',
    path: '/v1/users/me',
    summary: 'Self-service profile: firstName, lastName, defaultInterfaceLanguageId',
    operation: `mutation UpdateMe($input: UpdateMeInput!, ${ME_VARS}) { updateMe(input: $input) { ${ME} } }`,
    body: 'required',
    variables: (req) => ({ input: bodyObject(req), ...expandVariables(req) }),
  },
  {
    method: 'GET',
    path: '/v1/users',
    summary: 'Users of the selected team (TEAM_ADMIN_USERS view)',
    operation: `query Users($limit: Int, $offset: Int) { users(limit: $limit, offset: $offset) { nodes { ${TEAM_USER} } pagination { total limit offset hasMore } } }`,
    variables: pageVariables,
    respond: respondPage,
  },
  {
    method: 'GET',
    path: '/v1/users/{userSimplyId}',
    summary: 'A user of the selected team; 404 when not in it',
    operation: `query User($id: String!) { user(userSimplyId: $id) { ${TEAM_USER} } }`,
    variables: (req) => ({ id: req.params.userSimplyId }),
  },
  {
    method: 'POST',
    path: '/v1/users',
    summary: 'Create a user with team associations (system administrators only)',
    operation: `mutation CreateUser($input: CreateUserInput!) { createUser(input: $input) { ${USER} } }`,
    body: 'required',
    variables: (req) => ({ input: bodyObject(req) }),
    status: 201,
  },
]);
