// The public API of the team-roles area: all another area may import from it (test/app/module-structure.test.ts).
// Its manifest is module.ts; every other file of the folder is private to the area.
export { teamRoleId } from './team-roles.ids.ts';
export { FeaturePermissionRef, FieldAccessLevelEnum, FullAccessLevelEnum, roleSimplyIdField } from './team-roles.schema.ts';
export { findRoleId } from './team-roles.service.ts';
