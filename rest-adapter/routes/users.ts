// /v1/users → src/modules/users/users.schema.ts; the current user's devices, recent visits and
// sign-in sessions → mobile-devices.schema.ts, recent-visits.schema.ts, user-sessions.schema.ts.
import { z } from 'zod';
import { createUserInput, updateMeInput } from '../../src/modules/users/users.input.ts';
import { deviceSettingsInput, registerDeviceInput, updateDeviceInput } from '../../src/modules/users/mobile-devices.input.ts';
import { recordVisitInput } from '../../src/modules/users/recent-visits.input.ts';
import { describeSessionInput } from '../../src/modules/users/user-sessions.input.ts';
import {
  CURRENT_USER,
  CURRENT_USER_VARIABLES,
  MOBILE_DEVICE,
  MOBILE_DEVICE_SETTINGS,
  RECENT_VISIT,
  SIGN_IN_SESSION,
  TEAM_USER,
  USER,
} from '../../src/modules/users/users.fragments.ts';
import { operation } from '../../src/app/graphql/fragments.ts';
import { defineRoutes, respond, route, type JsonSchema } from '../route.ts';
import { actOn, createOne, getOne, listPage, updateOne } from '../route-shapes.ts';
import { queryInt, queryList } from '../schemas.ts';

const DEVICES = '/v1/users/me/mobile-devices';

/** `{ created, device }` → the device with `created` as data; 201 when it was registered now, 200 when refreshed */
const registration = respond.custom(
  ({ created, device }: { created: boolean; device: Record<string, unknown> }) => ({ data: { ...device, created }, status: created ? 201 : 200 }),
  (field) => {
    const device = respond.property(field, 'device');
    const properties = { ...(device.properties as Record<string, JsonSchema>), created: respond.property(field, 'created') };
    return { data: { ...device, properties, required: [...((device.required as string[] | undefined) ?? []), 'created'] } };
  },
);

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
    summary: 'Get the signed-in user',
    description: 'The signed-in user; expand=teams,rolePermissions,permissionSnapshot',
    operation: operation`query Me(${CURRENT_USER_VARIABLES}) { me { ${CURRENT_USER} } }`,
    query: expandQuery,
    variables: expandVariables,
  }),
  route({
    method: 'PATCH',
    path: '/v1/users/me',
    summary: 'Update my profile',
    description: 'Self-service profile: firstName, lastName, defaultInterfaceLanguageId; teamOpened: true stamps the selected team as opened',
    operation: operation`mutation UpdateMe($input: UpdateMeInput!, ${CURRENT_USER_VARIABLES}) { updateMe(input: $input) { ${CURRENT_USER} } }`,
    query: expandQuery,
    body: updateMeInput,
    example: { firstName: 'Ada', lastName: 'Lovelace', defaultInterfaceLanguageId: 'en-GB' },
    variables: (input) => ({ input: input.body, ...expandVariables(input) }),
  }),
  route({
    method: 'GET',
    path: DEVICES,
    summary: 'List my devices',
    description: "The signed-in user's devices (app installations), most recently active first",
    operation: operation`query MyMobileDevices { myMobileDevices { ${MOBILE_DEVICE} } }`,
  }),
  route({
    method: 'POST',
    path: `${DEVICES}/current`,
    summary: 'Register the current device',
    description: 'Register the installation the app runs as: { installationId, platform, deviceName?, appVersion?, osVersion? }; 201 new, 200 refreshed',
    operation: operation`mutation RegisterCurrentMobileDevice($input: RegisterMobileDeviceInput!) { registerCurrentMobileDevice(input: $input) { created device { ${MOBILE_DEVICE} } } }`,
    body: registerDeviceInput,
    example: { installationId: '7f3c2a9e-5b1d-4c8e-9a6f-2d4b8e1c3f5a', platform: 'ios', deviceName: "Ada's iPhone", appVersion: '4.2.0', osVersion: '18.1' },
    variables: ({ body }) => ({ input: body }),
    respond: registration,
    status: 201,
  }),
  updateOne({
    method: 'PUT',
    path: `${DEVICES}/{deviceSimplyId}`,
    summary: 'Update a device',
    description: 'Rename a device or switch its pushes: { deviceName?, pushEnabled? }',
    name: 'UpdateMyMobileDevice',
    inputType: 'UpdateMobileDeviceInput',
    body: updateDeviceInput,
    example: { deviceName: 'Work phone', pushEnabled: false },
    select: MOBILE_DEVICE,
  }),
  route({
    method: 'PUT',
    path: `${DEVICES}/current/settings`,
    summary: 'Update current device settings',
    description: 'Push switch and notification preferences of the current installation: { installationId, pushEnabled?, preferences? }',
    operation: operation`mutation UpdateCurrentMobileDeviceSettings($input: MobileDeviceSettingsInput!) { updateCurrentMobileDeviceSettings(input: $input) { ${MOBILE_DEVICE_SETTINGS} } }`,
    body: deviceSettingsInput,
    example: { installationId: '7f3c2a9e-5b1d-4c8e-9a6f-2d4b8e1c3f5a', pushEnabled: true, preferences: { newMessage: true, mention: true, system: false } },
    variables: ({ body }) => ({ input: body }),
  }),
  getOne({
    path: `${DEVICES}/{deviceSimplyId}/settings`,
    summary: "Get a device's settings",
    description: "A device's push switch and notification preferences (all six keys)",
    name: 'MobileDeviceSettings',
    select: MOBILE_DEVICE_SETTINGS,
  }),
  route({
    method: 'GET',
    path: '/v1/users/me/recent-visits',
    summary: 'List my recent visits',
    description: 'What the user opened lately in the selected team, newest first: limit 1-50, default 20',
    operation: operation`query MyRecentVisits($limit: Int) { myRecentVisits(limit: $limit) { ${RECENT_VISIT} } }`,
    query: z.strictObject({ limit: queryInt().describe('1-50, default 20') }),
    variables: ({ query }) => query,
  }),
  route({
    method: 'POST',
    path: '/v1/users/me/recent-visits',
    summary: 'Record a recent visit',
    description: 'Record a visit (moves a visited entity to the top): { entityType, entityId, title?, url? }',
    operation: operation`mutation RecordRecentVisit($input: RecordRecentVisitInput!) { recordRecentVisit(input: $input) { ${RECENT_VISIT} } }`,
    body: recordVisitInput,
    example: { entityType: 'DATA_RECORD', entityId: 'QR67-ST89-UV23', title: 'Ada Lovelace', url: '/records/QR67-ST89-UV23' },
    variables: ({ body }) => ({ input: body }),
  }),
  route({
    method: 'DELETE',
    path: '/v1/users/me/recent-visits',
    summary: 'Clear my recent visits',
    description: "Forget the user's recent visits in the selected team: { cleared }",
    operation: operation`mutation ClearRecentVisits { clearRecentVisits { cleared } }`,
  }),
  route({
    method: 'GET',
    path: '/v1/users/me/sessions',
    summary: 'List my sign-in sessions',
    description: "The user's active sign-in sessions, most recently active first, with isCurrent",
    operation: operation`query MySessions { mySessions { ${SIGN_IN_SESSION} } }`,
  }),
  route({
    method: 'POST',
    path: '/v1/users/me/sessions',
    summary: 'Describe the current session',
    description: 'Describe the current sign-in session: { platform?, deviceName? }; marks it active',
    operation: operation`mutation DescribeCurrentSession($input: DescribeSessionInput) { describeCurrentSession(input: $input) { ${SIGN_IN_SESSION} } }`,
    body: describeSessionInput.optional(),
    example: { platform: 'web', deviceName: 'Firefox on Linux' },
    variables: ({ body }) => ({ input: body ?? {} }),
  }),
  actOn({
    method: 'DELETE',
    path: '/v1/users/me/sessions/{sessionSimplyId}',
    summary: 'Revoke a sign-in session',
    description: 'Sign a session out: its refresh and access tokens stop working at once',
    name: 'RevokeMySession',
    respond: respond.deleted('sessionSimplyId', 'revoked'),
  }),
  listPage({ path: '/v1/users', summary: 'List team users', description: 'Users of the selected team (TEAM_ADMIN_USERS view)', name: 'Users', select: TEAM_USER }),
  getOne({ path: '/v1/users/{userSimplyId}', summary: 'Get a team user', description: 'A user of the selected team; 404 when not in it', name: 'User', select: TEAM_USER }),
  createOne({
    path: '/v1/users',
    summary: 'Create a user',
    description: 'Create a user with team associations (system administrators only)',
    name: 'CreateUser',
    inputType: 'CreateUserInput',
    body: createUserInput,
    example: {
      email: 'grace@example.org',
      firstName: 'Grace',
      lastName: 'Hopper',
      teams: [{ teamSimplyId: 'tm-AB23-CD45-EF67', isTeamAdmin: false, teamRoleSimplyId: 'role-AB23-CD45-EF67' }],
    },
    select: USER,
  }),
]);
