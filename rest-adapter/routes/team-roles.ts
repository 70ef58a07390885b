// /v1/team-roles → src/modules/team-roles/team-roles.schema.ts
import { teamRoleInput } from '../../src/modules/team-roles/team-roles.input.ts';
import { TEAM_ROLE } from '../../src/modules/team-roles/team-roles.fragments.ts';
import { defineRoutes, type RouteExtension } from '../route.ts';
import { actOn, createOne, getOne, listPage, updateOne } from '../route-shapes.ts';

const ROLE_INPUT = {
  inputType: 'TeamRoleInput',
  body: teamRoleInput,
  example: {
    name: 'Volunteer coordinators',
    dataPermissions: [{ dataCollectionSimplyId: 'GH89-JK23-MN45', level: 'EDIT' }],
    featurePermissions: [{ name: 'OUTGOING_MESSAGES_SEND', level: 'VIEW' }],
    fieldPermissions: [{ dataFieldSimplyId: 'fld-JK23-MN45-PQ67', level: 'READ' }],
  },
  select: TEAM_ROLE,
};

const TEAM_ROLES = 'team roles over REST (docs/api/team-roles.md): the route checklist has no team-role route';

/** Served routes the documents do not list, each with why it exists (OpenAPI `x-extension`). */
const EXTENSIONS: Record<string, RouteExtension> = {
  'GET /v1/team-roles': { reason: TEAM_ROLES },
  'POST /v1/team-roles': { reason: TEAM_ROLES },
  'GET /v1/team-roles/{teamRoleSimplyId}': { reason: TEAM_ROLES },
  'PUT /v1/team-roles/{teamRoleSimplyId}': { reason: TEAM_ROLES },
  'DELETE /v1/team-roles/{teamRoleSimplyId}': { reason: TEAM_ROLES },
};

export const teamRoleRoutes = defineRoutes([
  listPage({ path: '/v1/team-roles', summary: 'List team roles', description: 'List team roles (privileged; TEAM_ADMIN_USER_ROLES view)', name: 'TeamRoles', select: TEAM_ROLE }),
  createOne({ path: '/v1/team-roles', summary: 'Create a team role', description: 'Create a team role (privileged; TEAM_ADMIN_USER_ROLES edit)', name: 'CreateTeamRole', ...ROLE_INPUT }),
  getOne({ path: '/v1/team-roles/{teamRoleSimplyId}', summary: 'Get a team role', description: 'Get a team role', name: 'TeamRole', select: TEAM_ROLE }),
  updateOne({
    method: 'PUT',
    path: '/v1/team-roles/{teamRoleSimplyId}',
    summary: 'Replace a team role',
    description: 'Replace a team role (the whole body; omitted lists become empty)',
    name: 'ReplaceTeamRole',
    ...ROLE_INPUT,
  }),
  actOn({
    method: 'DELETE',
    path: '/v1/team-roles/{teamRoleSimplyId}',
    summary: 'Delete a team role',
    description: 'Delete a team role that no member or active API key uses (409 otherwise)',
    name: 'DeleteTeamRole',
  }),
], EXTENSIONS);
