// GraphQL face of users: the current user, team users, and user creation.
// REST: rest-adapter/routes/users.ts.
import type { Principal } from '../../app/auth/principal.ts';
import { builder, type BuilderTypes } from '../../app/builder.ts';
import { pageArgs, prismaById } from '../../app/graphql/args.ts';
import { givenFields, suppliedFields } from '../../app/graphql/input-fields.ts';
import { pageResolver, pageType } from '../../app/graphql/page.ts';
import { tier } from '../../app/auth/tiers.ts';
import { FeaturePermissionRef, FullAccessLevelEnum, roleSimplyIdField } from '../team-roles/index.ts';
import {
  countTeamUsers,
  createUser,
  findCurrentUser,
  findOwnRole,
  findTeamUser,
  findTeamUsers,
  loadUser,
  updateMe,
} from './users.service.ts';

const userSelect = { user: true } as const;

/** A user as seen by a team: membership facts plus the person. */
export const TeamUserRef = builder.prismaObject('TeamMembership', {
  name: 'TeamUser',
  select: { id: true, isTeamAdmin: true, isActive: true },
  fields: (t) => ({
    id: t.string({ select: userSelect, resolve: (m) => m.user.simplyId }),
    userSimplyId: t.string({ select: userSelect, resolve: (m) => m.user.simplyId }),
    email: t.string({ select: userSelect, resolve: (m) => m.user.email }),
    firstName: t.string({ select: userSelect, resolve: (m) => m.user.firstName }),
    lastName: t.string({ select: userSelect, resolve: (m) => m.user.lastName }),
    isTeamAdmin: t.exposeBoolean('isTeamAdmin'),
    isActive: t.boolean({
      description: 'an active member of this team whose account is not deactivated',
      select: { user: { select: { isActive: true } } },
      resolve: (m) => m.isActive && m.user.isActive,
    }),
    teamRoleSimplyId: t.string(roleSimplyIdField),
    lastLoggedIn: t.field({ type: 'DateTime', nullable: true, select: userSelect, resolve: (m) => m.user.lastLoggedIn }),
    createdAt: t.field({ type: 'DateTime', select: userSelect, resolve: (m) => m.user.createdAt }),
  }),
});

/** One of the current user's team memberships (expand=teams). */
export const UserTeamRef = builder.prismaObject('TeamMembership', {
  variant: 'UserTeam',
  fields: (t) => ({
    teamSimplyId: t.string({ select: { team: { select: { simplyId: true } } }, resolve: (m) => m.team.simplyId }),
    name: t.string({ select: { team: { select: { name: true } } }, resolve: (m) => m.team.name }),
    isTeamAdmin: t.exposeBoolean('isTeamAdmin'),
    isActive: t.exposeBoolean('isActive'),
    teamRoleSimplyId: t.string(roleSimplyIdField),
    lastOpened: t.expose('lastOpened', { type: 'DateTime', nullable: true }),
  }),
});

const SelectedTeamRef = builder.objectRef<{ simplyId: string; name: string }>('SelectedTeam').implement({
  fields: (t) => ({
    id: t.exposeString('simplyId'),
    teamSimplyId: t.exposeString('simplyId'),
    name: t.exposeString('name'),
  }),
});

const CollectionGrantRef = builder
  .objectRef<{ dataCollectionSimplyId: string; levels: string[] }>('CollectionGrant')
  .implement({
    fields: (t) => ({
      dataCollectionSimplyId: t.exposeString('dataCollectionSimplyId'),
      levels: t.exposeStringList('levels'),
    }),
  });

/** The effective permissions of the calling credential, as every authorization rule sees them. */
export const PermissionSnapshotRef = builder.objectRef<Principal>('PermissionSnapshot').implement({
  fields: (t) => ({
    credentialKind: t.string({ resolve: (p) => p.kind }),
    credentialId: t.string({ nullable: true, resolve: (p) => p.credentialId }),
    teamSimplyId: t.string({ nullable: true, resolve: (p) => p.team?.simplyId ?? null }),
    isSystemAdmin: t.boolean({ resolve: (p) => p.isSystemAdmin }),
    isTeamAdmin: t.boolean({ resolve: (p) => p.isTeamAdmin }),
    teamRoleSimplyId: t.string({ nullable: true, resolve: (p) => p.teamRoleSimplyId }),
    featurePermissions: t.field({
      type: [FeaturePermissionRef],
      resolve: (p) => [...p.features].map(([name, level]) => ({ name, level })).sort((a, b) => a.name.localeCompare(b.name)),
    }),
    dataFullAccess: t.field({ type: FullAccessLevelEnum, nullable: true, resolve: (p) => (p.isTeamAdmin || p.isSystemAdmin ? 'EDIT' : (p.data?.full ?? null)) }),
    hasDataAccess: t.boolean({ description: 'false for a credential without a team role', resolve: (p) => p.isTeamAdmin || p.isSystemAdmin || p.data !== null }),
    dataPermissions: t.field({
      type: [CollectionGrantRef],
      resolve: (p) =>
        [...(p.data?.collections ?? new Map())].map(([dataCollectionSimplyId, levels]) => ({
          dataCollectionSimplyId,
          levels: [...levels].sort(),
        })),
    }),
    oauthScopes: t.stringList({ nullable: true, description: 'null: not scope-limited', resolve: (p) => (p.scopes ? [...p.scopes] : null) }),
    expiresAt: t.field({ type: 'DateTime', nullable: true, resolve: (p) => p.expiresAt }),
  }),
});

type UserFieldBuilder = PothosSchemaTypes.PrismaObjectFieldBuilder<BuilderTypes, BuilderTypes['PrismaTypes']['User'], { id: bigint }>;

/** Who a user is: the same fields on CurrentUser and User. */
function identityFields(t: Pick<UserFieldBuilder, 'exposeString'>) {
  return {
    id: t.exposeString('simplyId'),
    userSimplyId: t.exposeString('simplyId'),
    email: t.exposeString('email'),
    firstName: t.exposeString('firstName'),
    lastName: t.exposeString('lastName'),
  };
}

export const CurrentUserRef = builder.prismaObject('User', {
  variant: 'CurrentUser',
  // select mode: only the columns the query asks for are read (never passwordHash)
  select: { id: true },
  fields: (t) => ({
    ...identityFields(t),
    isTeamAdmin: t.boolean({ resolve: (_u, _a, ctx) => ctx.principal.isTeamAdmin }),
    isSystemAdmin: t.exposeBoolean('isSystemAdmin'),
    defaultInterfaceLanguageId: t.exposeString('defaultInterfaceLanguageId', { nullable: true }),
    lastLoggedIn: t.expose('lastLoggedIn', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    selectedTeam: t.field({ type: SelectedTeamRef, nullable: true, resolve: (_u, _a, ctx) => ctx.principal.team }),
    permissions: t.field({
      type: builder.objectRef<Principal>('CurrentUserPermissions').implement({
        fields: (f) => ({
          isTeamAdmin: f.boolean({ resolve: (p) => p.isTeamAdmin }),
          isSystemAdmin: f.boolean({ resolve: (p) => p.isSystemAdmin }),
        }),
      }),
      resolve: (_u, _a, ctx) => ctx.principal,
    }),
    teams: t.relation('memberships', { type: UserTeamRef, query: { where: { isActive: true }, orderBy: { id: 'asc' } } }),
    rolePermissions: t.prismaField({
      type: 'TeamRole',
      nullable: true,
      description: "the selected team's role of this user (null without a team or role)",
      resolve: (query, _u, _a, ctx) => findOwnRole(ctx, query),
    }),
    permissionSnapshot: t.field({ type: PermissionSnapshotRef, resolve: (_u, _a, ctx) => ctx.principal }),
  }),
});

export const UserRef = builder.prismaObject('User', {
  select: { id: true },
  fields: (t) => ({
    ...identityFields(t),
    isSystemAdmin: t.exposeBoolean('isSystemAdmin'),
    isActive: t.exposeBoolean('isActive'),
    lastLoggedIn: t.expose('lastLoggedIn', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    teams: t.relation('memberships', { type: UserTeamRef, query: { orderBy: { id: 'asc' } } }),
  }),
});

const TeamUserPage = pageType('TeamUserPage', TeamUserRef);

const UpdateMeInput = builder.inputType('UpdateMeInput', {
  fields: (t) => ({
    firstName: t.string(),
    lastName: t.string(),
    defaultInterfaceLanguageId: t.string({ description: 'language tag; null clears' }),
    teamOpened: t.boolean({ description: "true: stamps the selected team's lastOpened (needs a team)" }),
  }),
});

const TeamLinkInput = builder.inputType('UserTeamLinkInput', {
  fields: (t) => ({
    teamSimplyId: t.string({ required: true }),
    isTeamAdmin: t.boolean(),
    teamRoleSimplyId: t.string(),
  }),
});

const CreateUserInput = builder.inputType('CreateUserInput', {
  fields: (t) => ({
    email: t.string({ required: true }),
    firstName: t.string(),
    lastName: t.string(),
    password: t.string({ description: 'at least 12 characters; omit for users who sign in through an external identity provider' }),
    isSystemAdmin: t.boolean(),
    teams: t.field({ type: [TeamLinkInput] }),
  }),
});

builder.queryFields((t) => ({
  me: t.prismaField({
    type: CurrentUserRef,
    authScopes: tier.identity,
    resolve: (query, _root, _args, ctx) => findCurrentUser(ctx, query),
  }),
  viewer: t.field({
    type: PermissionSnapshotRef,
    description: 'The effective permissions of whatever credential calls (API keys included).',
    authScopes: tier.authenticated,
    resolve: (_root, _args, ctx) => ctx.principal,
  }),
  users: t.field({
    type: TeamUserPage,
    authScopes: tier.standardFeature('TEAM_ADMIN_USERS', 'VIEW'),
    args: pageArgs(t.arg),
    resolve: pageResolver(findTeamUsers, countTeamUsers),
  }),
  user: t.prismaField({
    type: TeamUserRef,
    authScopes: tier.standardFeature('TEAM_ADMIN_USERS', 'VIEW'),
    ...prismaById(t.arg, 'userSimplyId', findTeamUser),
  }),
}));

builder.mutationFields((t) => ({
  updateMe: t.prismaField({
    type: CurrentUserRef,
    authScopes: tier.authenticated,
    args: { input: t.arg({ type: UpdateMeInput, required: true }) },
    resolve: async (query, _root, args, ctx) => loadUser(ctx, await updateMe(ctx, suppliedFields(args.input)), query),
  }),
  createUser: t.prismaField({
    type: UserRef,
    authScopes: tier.systemAdmin,
    args: { input: t.arg({ type: CreateUserInput, required: true }) },
    resolve: async (query, _root, args, ctx) =>
      loadUser(ctx, await createUser(ctx, { ...givenFields(args.input), teams: args.input.teams?.map((link) => givenFields(link)) }), query),
  }),
}));
