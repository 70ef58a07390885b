// GraphQL face of team roles. REST: rest-adapter/routes/team-roles.ts.
import type { EnumRef, InputFieldRef } from '@pothos/core';
import { builder, type BuilderTypes } from '../../app/builder.ts';
import { byId, pageArgs, prismaById } from '../../app/graphql/args.ts';
import { givenFields } from '../../app/graphql/input-fields.ts';
import { pageResolver, pageType } from '../../app/graphql/page.ts';
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

/** Options of a `teamRoleSimplyId` field on a row with a `role` relation (API keys, memberships): selects only the role's id. */
export const roleSimplyIdField = {
  nullable: true as const,
  select: { role: { select: { simplyId: true as const } } },
  resolve: (row: { role: { simplyId: string } | null }) => row.role?.simplyId ?? null,
};

const TeamRolePage = pageType('TeamRolePage', TeamRoleRef);

/** One grant of a role: its subject (a collection, feature or field) and the level granted. */
function permissionInput<K extends string, Level extends string>(name: string, subject: K, level: EnumRef<BuilderTypes, Level>) {
  type Fields = { [P in K]: InputFieldRef<BuilderTypes, string> } & { level: InputFieldRef<BuilderTypes, Level> };
  return builder.inputType(name, {
    fields: (t) => ({ [subject]: t.string({ required: true }), level: t.field({ type: level, required: true }) }) as Fields,
  });
}

const DataPermissionInput = permissionInput('DataPermissionInput', 'dataCollectionSimplyId', DataAccessLevelEnum);
const FeaturePermissionInput = permissionInput('FeaturePermissionInput', 'name', FeatureLevelEnum);
const FieldPermissionInput = permissionInput('FieldPermissionInput', 'dataFieldSimplyId', FieldAccessLevelEnum);

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
    args: pageArgs(t.arg),
    resolve: pageResolver(findTeamRoles, countTeamRoles),
  }),
  teamRole: t.prismaField({
    type: 'TeamRole',
    authScopes: tier.privileged(FEATURE, 'VIEW'),
    ...prismaById(t.arg, 'teamRoleSimplyId', findTeamRole),
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
    ...byId(t.arg, 'teamRoleSimplyId', deleteTeamRole),
  }),
}));
