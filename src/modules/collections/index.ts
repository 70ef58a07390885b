// The public API of the collections area: all another area may import from it (test/app/module-structure.test.ts).
// Its manifest is module.ts; every other file of the folder is private to the area.
export { DataCollectionRef, DataFieldRef } from './collections-types.schema.ts';
export { DATA_COLLECTION_BRIEF, DATA_FIELD_DEFINITION } from './collections.fragments.ts';
export { useImportToken } from './import-token.service.ts';
