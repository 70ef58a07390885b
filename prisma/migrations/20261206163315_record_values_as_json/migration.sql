-- A record's values are written whole and read whole (filters and sorts read DataRecordKey and
-- DataRecordMembership), so they are kept as the JSON text that was written: a `jsonb` value is
-- printed back to text on every read, a fifth of PostgreSQL's work for a page of 25 records.
-- The table is rewritten once (jsonb converts to json by assignment).
ALTER TABLE "DataRecord" ALTER COLUMN "values" SET DATA TYPE JSON;
