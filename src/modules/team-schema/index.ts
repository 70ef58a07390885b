// The public API of the team-schema area: all another area may import from it (test/app/module-structure.test.ts).
// Its manifest is module.ts; every other file of the folder is private to the area.
export { schemaWrite } from './schema-write.ts';
export { requireSchemaRead } from './team-schema.service.ts';
