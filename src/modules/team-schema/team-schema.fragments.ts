// The selections of this area's types that other faces (REST tables, tests) use.
import { fragment, selection } from '../../app/graphql/fragments.ts';

export const TEAM_SCHEMA_EXPORT = fragment('TeamSchemaExportFields', 'TeamSchemaExport', `version formatVersion collections views wizards automations`);

export const TEAM_SCHEMA_VERSION = fragment('TeamSchemaVersionFields', 'TeamSchemaVersion', `version summary actorKind actorId createdAt`);

const ENTITY_CHANGE = fragment('TeamSchemaEntityChangeFields', 'TeamSchemaEntityChange', `id dataCollectionSimplyId changedProperties before after`);

const ENTITY_DIFF = fragment(
  'TeamSchemaEntityDiffFields',
  'TeamSchemaEntityDiff',
  selection`added { ${ENTITY_CHANGE} } removed { ${ENTITY_CHANGE} } changed { ${ENTITY_CHANGE} }`,
);

export const TEAM_SCHEMA_DIFF = fragment(
  'TeamSchemaDiffFields',
  'TeamSchemaDiff',
  selection`from to hasChanges collections { ${ENTITY_DIFF} } fields { ${ENTITY_DIFF} } views { ${ENTITY_DIFF} } wizards { ${ENTITY_DIFF} } automations { ${ENTITY_DIFF} }`,
);

export const TEAM_SCHEMA_CHANGED = fragment('TeamSchemaChangedFields', 'TeamSchemaChanged', `changed currentVersion changedAt versionsSince`);
