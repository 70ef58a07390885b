// /v1/team-roles → src/modules/team-roles/team-roles.schema.ts
import { teamRoleInput } from '../../src/modules/team-roles/team-roles.input.ts';
import { TEAM_ROLE } from '../../src/modules/team-roles/team-roles.fragments.ts';
import { operation, PAGINATION } from '../../src/app/graphql/fragments.ts';
import { defineRoutes, respond, route } from '../route.ts';
import { pageQuery } from '../schemas.ts';

export const teamRoleRoutes = defineRoutes([
  route({
    method: 'GET',
    path: '/v1/team-roles',
    summary: 'List team roles (privileged; TEAM_ADMIN_USER_ROLES view)',
    operation: operation`query TeamRoles($limit: Int, $offset: Int) { teamRoles(limit: $limit, offset: $offset) { nodes { ${TEAM_ROLE} } pagination { ${PAGINATION} } } }`,
    query: pageQuery,
    variables: ({ query }) => query,
    respond: respond.page,
  }),
  route({
    method: 'POST',
    path: '/v1/team-roles',
    summary: 'Create a team role (privileged; TEAM_ADMIN_USER_ROLES edit)',
    operation: operation`mutation CreateTeamRole($input: TeamRoleInput!) { createTeamRole(input: $input) { ${TEAM_ROLE} } }`,
    body: teamRoleInput,
    variables: ({ body }) => ({ input: body }),
    status: 201,
  }),
  route({
    method: 'GET',
    path: '/v1/team-roles/{teamRoleSimplyId}',
    summary: 'Get a team role',
    operation: operation`query TeamRole($id: String!) { teamRole(teamRoleSimplyId: $id) { ${TEAM_ROLE} } }`,
    variables: ({ params }) => ({ id: params.teamRoleSimplyId }),
  }),
  route({
    method: 'PUT',
    path: '/v1/team-roles/{teamRoleSimplyId}',
    summary: 'Replace a team role (the whole body; omitted lists become empty)',
    operation: operation`mutation ReplaceTeamRole($id: String!, $input: TeamRoleInput!) { replaceTeamRole(teamRoleSimplyId: $id, input: $input) { ${TEAM_ROLE} } }`,
    body: teamRoleInput,
    variables: ({ params, body }) => ({ id: params.teamRoleSimplyId, input: body }),
  }),
  route({
    method: 'DELETE',
    path: '/v1/team-roles/{teamRoleSimplyId}',
    summary: 'Delete a team role that no member or active API key uses (409 otherwise)',
    operation: operation`mutation DeleteTeamRole($id: String!) { deleteTeamRole(teamRoleSimplyId: $id) }`,
    variables: ({ params }) => ({ id: params.teamRoleSimplyId }),
    respond: respond.deleted('teamRoleSimplyId'),
  }),
]);
