// The data kernel's public API: collections, fields and records as every area sees them. Areas import
// the kernel only through this file (test/app/module-structure.test.ts) and never write SQL against
// the record tables; the kernel imports no area. docs/architecture.md "The data kernel" is the contract.

// --- The team's schema, and a caller's access to a collection and its fields
export type { CollectionDefinition, CollectionType, FieldDefinition, TeamSchema } from './schema/team-schema.ts';
export { SCHEMA_CHANNEL, SchemaCache } from './schema/schema-cache.ts';
export { accessTo, canReadCollection, type CollectionAccess, collectionFor, requireRecordCredential } from './schema/access.ts';
export { dataFieldId } from './schema/collections.ids.ts';

// --- Schema administration (the collections area, and the schema import of team-schema)
export { adminAccess, assertOwnsFields, canonicalFormula, checkCriteria, checkFieldConfig, criteriaFields, findCollection, findOwnField, formulaDetails, loadSchemaTx, smartOver, throwIfDetails } from './schema/schema-admin.ts';
export { dropFieldKeys, recomputeRecordNames, resyncSmartCollection } from './schema/recompute.ts';

// --- The values codec: parse, validate and format a value per data type; the calculated name
export { currencyDigits, DATA_TYPES, decodeRecordFields, decodeValue, encodeRecordFields, encodeValue, type FieldDef, indexKey, isDataType, MAX_FILTERS, type NormalizedFilter, normalizeFilters, toDisplayText, toValidationError, valueShape } from './values/index.ts';
export { parseEmail } from './values/contact.ts';
export { textProblem } from './values/text-guards.ts';
export { optionalText } from './values/text-inputs.ts';
export { calculateName, formulaFields, MAX_FORMULA_LENGTH } from './records/calculated-name.ts';

// --- Permission-aware reads: what the API answers (the caller's readable fields only)
export { getRecord, listRecords, loadRecordViews, type RecordPage, searchRecords } from './records/records.service.ts';
export { RecordView } from './records/record-view.ts';

// --- Set-based reads for jobs and events: by team id, one statement for any number of records
export { findRecordPage, findRecords, type RecordRow } from './records/records.sql.ts';
export { findRecordsById, recordCollectionIds, recordSimplyIds, type StoredRecord } from './records/stored-records.sql.ts';
export { findRecordStandings, type RecordStanding, recordStandingSql } from './records/record-standings.sql.ts';
export { collectionsOfTeamRecords, type RecordCollection, type TeamRecordRef } from './records/record-collections.sql.ts';
export { findMatchingRecord, type RecordMatchQuery } from './records/record-match.sql.ts';
export { type CollectionMember, findCollectionMembers, memberCollectionIds, type MembershipState } from './records/record-memberships.sql.ts';
export { liveRecordIds } from './records/record-ids.sql.ts';
// walks of a collection's matches in id order (exports, bulk work) and what they hold
export { countScannedRecords, type RecordScan, scanRecordIds, type ScannedRecord, scanRecords, type ScanWindow } from './records/record-scans.sql.ts';
export { emailAddressesInScan, type ScannedAddresses } from './records/scan-email-addresses.sql.ts';
// records by the values they hold: key fields (imports), contact fields (sign-in), any of several fields (file references)
export { findRecordsByKey, isLookupField, type LookupKey, lookupKeyOf } from './records/key-lookup.sql.ts';
export { type ContactHolder, type ContactLookup, findOldestContactHolder } from './records/contact-lookup.sql.ts';
export { type CollectionField, valuesHeldInFields } from './records/held-values.sql.ts';

// --- The record write path: memberships, keys, counters, audit entries, domain events and the outbox kept right
export { createRecords, deleteRecordsById, type ItemFailure, RecordChangedError, updateRecordsById, type WriteOutcome } from './records/records.service.ts';
export { checkReferences, type FileReferenceLookup, type PreparedFields, prepareFields } from './records/record-input.ts';
// the update step inside a transaction the caller holds (a run recorded in the same commit)
export { lockRecords } from './records/records.sql.ts';
export { applyRecordRewrites, type RecordRewrite } from './records/record-updates.ts';
export { type ChangeActor, type RecordChange, RECORD_EVENT_TYPES, type RecordWriteGuard } from './records/record-changes.ts';
export type { RecordChangeEvent } from './records/records.events.ts';

// --- Record totals: per-collection counters, their fold jobs (run by the records area) and the recount (svc counts)
export { readCounts } from './records/record-counts.sql.ts';
export { recordJobs, requestCountFold } from './records/records.jobs.ts';
export { checkCounts } from './records/record-counts.sql.ts';
