// /v1/users → src/modules/users/users.schema.ts
import { z } from 'zod';
import { createUserInput, updateMeInput } from '../../src/modules/users/users.input.ts';
import { CURRENT_USER, CURRENT_USER_VARIABLES, TEAM_USER, USER } from '../../src/modules/users/users.fragments.ts';
import { operation } from '../../src/app/graphql/fragments.ts';
import { defineRoutes, route } from '../route.ts';
import { createOne, getOne, listPage } from '../route-shapes.ts';
import { queryList } from '../schemas.ts';

/** `expand=teams,rolePermissions,permissionSnapshot`; other values are ignored */
const expandQuery = z.object({ expand: queryList().describe('teams, rolePermissions, permissionSnapshot (comma-separated)') });

const expandVariables = ({ query }: { query: z.output<typeof expandQuery> }) => ({
  teams: query.expand.includes('teams'),
  rolePermissions: query.expand.includes('rolePermissions'),
  permissionSnapshot: query.expand.includes('permissionSnapshot'),
});

export const userRoutes = defineRoutes([
  route({
    method: 'GET',
    path: '/v1/users/me',
    summary: 'The signed-in user; expand=teams,rolePermissions,permissionSnapshot',
    operation: operation`query Me(${CURRENT_USER_VARIABLES}) { me { ${CURRENT_USER} } }`,
    query: expandQuery,
    variables: expandVariables,
  }),
  route({
    method: 'PATCH',
    path: '/v1/users/me',
    summary: 'Self-service profile: firstName, lastName, defaultInterfaceLanguageId',
    operation: operation`mutation UpdateMe($input: UpdateMeInput!, ${CURRENT_USER_VARIABLES}) { updateMe(input: $input) { ${CURRENT_USER} } }`,
    query: expandQuery,
    body: updateMeInput,
    variables: (input) => ({ input: input.body, ...expandVariables(input) }),
  }),
  listPage({ path: '/v1/users', summary: 'Users of the selected team (TEAM_ADMIN_USERS view)', name: 'Users', select: TEAM_USER }),
  getOne({ path: '/v1/users/{userSimplyId}', summary: 'A user of the selected team; 404 when not in it', name: 'User', select: TEAM_USER }),
  createOne({
    path: '/v1/users',
    summary: 'Create a user with team associations (system administrators only)',
    name: 'CreateUser',
    inputType: 'CreateUserInput',
    body: createUserInput,
    select: USER,
  }),
]);
