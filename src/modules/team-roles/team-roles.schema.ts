// GraphQL face of team roles. REST: rest-adapter/routes/team-roles.ts.
import { builder } from '../../app/builder.ts';
import { givenFields } from '../../app/graphql/input-fields.ts';
import { loadPage, pageType } from '../../app/graphql/page.ts';
import { tier } from '../../app/auth/tiers.ts';
import { countTeamRoles, createTeamRole, deleteTeamRole, findTeamRole, findTeamRoles, loadTeamRole, replaceTeamRole } from './team-roles.service.ts';

const FEATURE = 'TEAM_ADMIN_USER_ROLES';

export const DataAccessLevelEnum = builder.enumType('DataAccessLevel', { values: ['READ', 'EDIT', 'RUN'] as const });
export const FullAccessLevelEnum = builder.enumType('FullAccessLevel', { values: ['READ', 'EDIT'] as const });
export const FeatureLevelEnum = builder.enumType('FeatureLevel', { values: ['VIEW', 'EDIT'] as const });

export const FeaturePermissionRef = builder
  .objectRef<{ name: string; level: 'VIEW' | 'EDIT' }>('FeaturePermission')
  .implement({
    fields: (t) => ({
      name: t.exposeString('name'),
      level: t.field({ type: FeatureLevelEnum, resolve: (f) => f.level }),
    }),
  });

export const DataPermissionRef = builder.prismaObject('TeamRoleDataPermission', {
  name: 'DataPermission',
  fields: (t) => ({
    dataCollectionSimplyId: t.exposeString('dataCollectionSimplyId', { description: 'a collection simplyId, or "*" for all' }),
    level: t.expose('level', { type: DataAccessLevelEnum }),
  }),
});

export const FieldAccessLevelEnum = builder.enumType('FieldAccessLevel', { values: ['NONE', 'READ', 'EDIT'] as const });

export const FieldPermissionRef = builder.prismaObject('TeamRoleFieldPermission', {
  name: 'FieldPermission',
  fields: (t) => ({
    dataFieldSimplyId: t.exposeString('dataFieldSimplyId'),
    level: t.expose('level', { type: FieldAccessLevelEnum }),
  }),
});

export const TeamRoleRef = builder.prismaObject('TeamRole', {
  fields: (t) => ({
    id: t.exposeString('simplyId'),
    teamRoleSimplyId: t.exposeString('simplyId'),
    name: t.exposeString('name'),
    dataFullAccess: t.expose('dataFullAccess', { type: FullAccessLevelEnum, nullable: true }),
    dataPermissions: t.relation('dataPermissions', { query: { orderBy: { id: 'asc' } } }),
    fieldPermissions: t.relation('fieldPermissions', { query: { orderBy: { id: 'asc' } } }),
    featurePermissions: t.field({
      type: [FeaturePermissionRef],
      resolve: (role) => (Array.isArray(role.featurePermissions) ? role.featurePermissions : []) as never,
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const TeamRolePage = pageType('TeamRolePage', TeamRoleRef);

const DataPermissionInput = builder.inputType('DataPermissionInput', {
  fields: (t) => ({
    dataCollectionSimplyId: t.string({ required: true }),
    level: t.field({ type: DataAccessLevelEnum, required: true }),
  }),
});

const FeaturePermissionInput = builder.inputType('FeaturePermissionInput', {
  fields: (t) => ({
    name: t.string({ required: true }),
    level: t.field({ type: FeatureLevelEnum, required: true }),
  }),
});

const FieldPermissionInput = builder.inputType('FieldPermissionInput', {
  fields: (t) => ({
    dataFieldSimplyId: t.string({ required: true }),
    level: t.field({ type: FieldAccessLevelEnum, required: true }),
  }),
});

const TeamRoleInput = builder.inputType('TeamRoleInput', {
  fields: (t) => ({
    name: t.string({ required: true }),
    dataPermissions: t.field({ type: [DataPermissionInput], required: false }),
    featurePermissions: t.field({ type: [FeaturePermissionInput], required: false }),
    dataFullAccess: t.field({ type: FullAccessLevelEnum, required: false }),
    fieldPermissions: t.field({ type: [FieldPermissionInput], required: false }),
  }),
});

builder.queryFields((t) => ({
  teamRoles: t.field({
    type: TeamRolePage,
    authScopes: tier.privileged(FEATURE, 'VIEW'),
    args: { limit: t.arg.int(), offset: t.arg.int() },
    resolve: (_root, args, ctx, info) =>
      loadPage(ctx, info, args, { findMany: (query, paging) => findTeamRoles(ctx, query, paging), count: () => countTeamRoles(ctx) }),
  }),
  teamRole: t.prismaField({
    type: 'TeamRole',
    authScopes: tier.privileged(FEATURE, 'VIEW'),
    args: { teamRoleSimplyId: t.arg.string({ required: true }) },
    resolve: (query, _root, args, ctx) => findTeamRole(ctx, args.teamRoleSimplyId, query),
  }),
}));

builder.mutationFields((t) => ({
  createTeamRole: t.prismaField({
    type: 'TeamRole',
    authScopes: tier.privileged(FEATURE, 'EDIT'),
    args: { input: t.arg({ type: TeamRoleInput, required: true }) },
    resolve: async (query, _root, args, ctx) => loadTeamRole(ctx, (await createTeamRole(ctx, givenFields(args.input))).id, query),
  }),
  replaceTeamRole: t.prismaField({
    type: 'TeamRole',
    description: 'Replaces the whole role (REST PUT).',
    authScopes: tier.privileged(FEATURE, 'EDIT'),
    args: { teamRoleSimplyId: t.arg.string({ required: true }), input: t.arg({ type: TeamRoleInput, required: true }) },
    resolve: async (query, _root, args, ctx) => loadTeamRole(ctx, (await replaceTeamRole(ctx, args.teamRoleSimplyId, givenFields(args.input))).id, query),
  }),
  deleteTeamRole: t.boolean({
    authScopes: tier.privileged(FEATURE, 'EDIT'),
    args: { teamRoleSimplyId: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => deleteTeamRole(ctx, args.teamRoleSimplyId),
  }),
}));
