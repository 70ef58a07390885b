// GraphQL face of users: the current user, team users, and user creation.
// REST: rest-adapter/routes/users.ts.
import type { Principal } from '../../app/auth/principal.ts';
import { builder } from '../../app/builder.ts';
import { givenFields, suppliedFields } from '../../app/graphql/input-fields.ts';
import { assertSimplyId } from '../../app/ids.ts';
import { loadPage, pageType } from '../../app/graphql/page.ts';
import { requireTeam } from '../../app/require-team.ts';
import { tier } from '../../app/auth/tiers.ts';
import { InvalidTeamSelectionError, NotFoundError, PermissionDeniedError, ValidationError } from '../../app/errors.ts';
import { FeaturePermissionRef, FullAccessLevelEnum } from '../team-roles/team-role.schema.ts';
import { createUser, updateMe } from './users.service.ts';

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
    isActive: t.exposeBoolean('isActive', { description: 'active member of this team' }),
    teamRoleSimplyId: t.string({
      nullable: true,
      select: { role: { select: { simplyId: true } } },
      resolve: (m) => m.role?.simplyId ?? null,
    }),
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
    teamRoleSimplyId: t.string({
      nullable: true,
      select: { role: { select: { simplyId: true } } },
      resolve: (m) => m.role?.simplyId ?? null,
    }),
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

export const CurrentUserRef = builder.prismaObject('User', {
  variant: 'CurrentUser',
  // select mode: only the columns the query asks for are read (never passwordHash)
  select: { id: true },
  fields: (t) => ({
    id: t.exposeString('simplyId'),
    userSimplyId: t.exposeString('simplyId'),
    email: t.exposeString('email'),
    firstName: t.exposeString('firstName'),
    lastName: t.exposeString('lastName'),
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
      resolve: (query, _u, _a, ctx) => {
        const p = ctx.principal;
        if (!p.team || !p.teamRoleSimplyId) return null;
        return ctx.services.prisma.teamRole.findUnique({ ...query, where: { teamId_simplyId: { teamId: p.team.id, simplyId: p.teamRoleSimplyId } } });
      },
    }),
    permissionSnapshot: t.field({ type: PermissionSnapshotRef, resolve: (_u, _a, ctx) => ctx.principal }),
  }),
});

export const UserRef = builder.prismaObject('User', {
  select: { id: true },
  fields: (t) => ({
    id: t.exposeString('simplyId'),
    userSimplyId: t.exposeString('simplyId'),
    email: t.exposeString('email'),
    firstName: t.exposeString('firstName'),
    lastName: t.exposeString('lastName'),
    isSystemAdmin: t.exposeBoolean('isSystemAdmin'),
    isActive: t.exposeBoolean('isActive'),
    lastLoggedIn: t.expose('lastLoggedIn', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    teams: t.relation('memberships', { type: UserTeamRef, query: { orderBy: { id: 'asc' } } }),
  }),
});

const TeamUserPage = pageType('TeamUserPage', TeamUserRef);

/**
 * Current-user routes need a user credential. Document 2 §5: an API key here is a 400
 * VALIDATION_ERROR (not IDP_REQUIRED); a team the user does not belong to is 403.
 */
function assertUserCredential(p: Principal): void {
  if (p.kind === 'API_KEY' || p.kind === 'SESSION_TOKEN') {
    throw new ValidationError('Current-user routes need a user credential; API keys and session tokens have no user');
  }
  if (p.kind !== 'USER') throw new PermissionDeniedError('This credential has no user');
  // a team that was asked for but cannot be used is an error even where the team is optional
  if (p.teamError instanceof PermissionDeniedError || p.teamError instanceof InvalidTeamSelectionError) throw p.teamError;
}

const UpdateMeInput = builder.inputType('UpdateMeInput', {
  fields: (t) => ({
    firstName: t.string(),
    lastName: t.string(),
    defaultInterfaceLanguageId: t.string({ description: 'language tag; null clears' }),
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
    authScopes: tier.authenticated,
    resolve: (query, _root, _args, ctx) => {
      assertUserCredential(ctx.principal);
      return ctx.services.prisma.user.findUniqueOrThrow({ ...query, where: { id: ctx.principal.userId! } });
    },
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
    args: { limit: t.arg.int(), offset: t.arg.int() },
    resolve: (_root, args, ctx, info) => {
      const team = requireTeam(ctx);
      const where = { teamId: team.id };
      return loadPage(ctx, info, args, {
        findMany: (query, paging) =>
          ctx.services.prisma.teamMembership.findMany({ ...query, where, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], skip: paging.offset, take: paging.limit }),
        count: () => ctx.services.prisma.teamMembership.count({ where }),
      });
    },
  }),
  user: t.prismaField({
    type: TeamUserRef,
    authScopes: tier.standardFeature('TEAM_ADMIN_USERS', 'VIEW'),
    args: { userSimplyId: t.arg.string({ required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const team = requireTeam(ctx);
      assertSimplyId(args.userSimplyId, 'user', 'userSimplyId');
      const membership = await ctx.services.prisma.teamMembership.findFirst({
        ...query,
        where: { teamId: team.id, user: { simplyId: args.userSimplyId } },
      });
      if (!membership) throw new NotFoundError('User', args.userSimplyId);
      return membership;
    },
  }),
}));

builder.mutationFields((t) => ({
  updateMe: t.prismaField({
    type: CurrentUserRef,
    authScopes: tier.authenticated,
    args: { input: t.arg({ type: UpdateMeInput, required: true }) },
    resolve: async (query, _root, args, ctx) => {
      assertUserCredential(ctx.principal);
      const id = await updateMe(ctx, suppliedFields(args.input));
      return ctx.services.prisma.user.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
  createUser: t.prismaField({
    type: UserRef,
    authScopes: tier.systemAdmin,
    args: { input: t.arg({ type: CreateUserInput, required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const id = await createUser(ctx, {
        ...givenFields(args.input),
        teams: args.input.teams?.map((link) => givenFields(link)),
      });
      return ctx.services.prisma.user.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
}));
