// The data kernel's public API: collections, fields and records as every area sees them. Areas import
// the kernel only through this file (test/app/module-structure.test.ts) and never write SQL against
// the record tables; the kernel imports no area. docs/architecture.md "The data kernel" is the contract.

// --- The team's schema, and a caller's access to a collection and its fields
export type { CollectionDefinition, CollectionType, FieldDefinition, TeamSchema } from './schema/team-schema.ts';
export { SCHEMA_CHANNEL, SchemaCache } from './schema/schema-cache.ts';
export { accessTo, canReadCollection, type CollectionAccess, collectionFor, requireRecordCredential } from './schema/access.ts';
export { dataFieldId } from './schema/collections.ids.ts';

// --- Schema administration (the collections area and the schema import of team-schema)
export { adminAccess, assertOwnsFields, canonicalFormula, checkCriteria, checkFieldConfig, criteriaFields, findCollection, findOwnField, formulaDetails, loadSchemaTx, smartOver, throwIfDetails } from './schema/schema-admin.ts';
export { dropFieldKeys, recomputeRecordNames, resyncSmartCollection } from './schema/recompute.ts';

// --- The values codec: parse, validate and format a value per data type
export { currencyDigits, DATA_TYPES, decodeRecordFields, decodeValue, encodeRecordFields, encodeValue, type FieldDef, indexKey, isDataType, MAX_FILTERS, type NormalizedFilter, normalizeFilters, toDisplayText, toValidationError, valueShape } from './values/index.ts';
export { parseEmail } from './values/contact.ts';
export { textProblem } from './values/text-guards.ts';
export { calculateName, formulaFields, MAX_FORMULA_LENGTH } from './records/calculated-name.ts';

// --- Reads: permission-aware (a request context) and set-based (a team id, for jobs and events)
export { getRecord, listRecords, loadRecordViews, type RecordPage, type RecordView, searchRecords } from './records/records.service.ts';
export { findRecordPage, findRecords, type RecordRow, toRecordRow } from './records/records.sql.ts';
export { readCounts } from './records/record-counts.sql.ts';

// --- The record write path: memberships, counters, audit entries, domain events and the outbox kept right
export { createRecords, deleteRecordsById, type ItemFailure, updateRecordsById, type WriteOutcome } from './records/records.service.ts';
export { checkReferences, type FileReferenceLookup, type PreparedFields, prepareFields } from './records/record-input.ts';
export { type ChangeActor, RECORD_EVENT_TYPES, recordChanges } from './records/record-changes.ts';
export type { RecordChangeEvent } from './records/records.events.ts';

// --- Low-level pieces still used by areas' own record SQL (to be replaced by kernel reads)
export { lockRecords, syncSmartMemberships, updateRecords } from './records/records.sql.ts';
export { compileFilters } from './records/record-filters.sql.ts';
export { isNumericKind, keyKindOf, keyRowsFor, prefixOf } from './records/record-keys.ts';
export { SqlParams } from './records/sql-params.ts';

// --- Jobs the records area runs for the kernel (per-collection record totals)
export { recordJobs, requestCountFold } from './records/records.jobs.ts';
