// /v1/team-roles → src/team-roles/team-role.schema.ts
import { bodyObject, defineRoutes, pageVariables, respondPage } from '../route.ts';

const ROLE = `
  id teamRoleSimplyId name dataFullAccess
  dataPermissions { dataCollectionSimplyId level }
  fieldPermissions { dataFieldSimplyId level }
  featurePermissions { name level }
  createdAt updatedAt`;

export const teamRoleRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/v1/team-roles',
    summary: 'List team roles (privileged; TEAM_ADMIN_USER_ROLES view)',
    operation: `query TeamRoles($limit: Int, $offset: Int) { teamRoles(limit: $limit, offset: $offset) { nodes { ${ROLE} } pagination { total limit offset hasMore } } }`,
    variables: pageVariables,
    respond: respondPage,
  },
  {
    method: 'POST',
    path: '/v1/team-roles',
    summary: 'Create a team role (privileged; TEAM_ADMIN_USER_ROLES edit)',
    operation: `mutation CreateTeamRole($input: TeamRoleInput!) { createTeamRole(input: $input) { ${ROLE} } }`,
    body: 'required',
    variables: (req) => ({ input: bodyObject(req) }),
    status: 201,
  },
  {
    method: 'GET',
    path: '/v1/team-roles/{teamRoleSimplyId}',
    summary: 'Get a team role',
    operation: `query TeamRole($id: String!) { teamRole(teamRoleSimplyId: $id) { ${ROLE} } }`,
    variables: (req) => ({ id: req.params.teamRoleSimplyId }),
  },
  {
    method: 'PUT',
    path: '/v1/team-roles/{teamRoleSimplyId}',
    summary: 'Replace a team role (the whole body; omitted lists become empty)',
    operation: `mutation ReplaceTeamRole($id: String!, $input: TeamRoleInput!) { replaceTeamRole(teamRoleSimplyId: $id, input: $input) { ${ROLE} } }`,
    body: 'required',
    variables: (req) => ({ id: req.params.teamRoleSimplyId, input: bodyObject(req) }),
  },
  {
    method: 'DELETE',
    path: '/v1/team-roles/{teamRoleSimplyId}',
    summary: 'Delete a team role that no member or active API key uses (409 otherwise)',
    operation: `mutation DeleteTeamRole($id: String!) { deleteTeamRole(teamRoleSimplyId: $id) }`,
    variables: (req) => ({ id: req.params.teamRoleSimplyId }),
    respond: (_deleted, req) => ({ data: { id: req.params.teamRoleSimplyId, deleted: true } }),
  },
]);
