-- DropIndex
DROP INDEX "DataRecordKey_teamId_fieldId_numKey_recordId_idx";

-- DropIndex
DROP INDEX "DataRecordKey_teamId_fieldId_prefix_recordId_idx";

-- Partial filter-key indexes, not modelled in schema.prisma (see the comment on DataRecordKey):
-- a key row fills prefix or numKey, and every filter condition on either implies NOT NULL.
CREATE INDEX "DataRecordKey_prefix_key" ON "DataRecordKey"("teamId", "fieldId", "prefix", "recordId") WHERE (prefix IS NOT NULL);

CREATE INDEX "DataRecordKey_numKey_key" ON "DataRecordKey"("teamId", "fieldId", "numKey", "recordId") WHERE ("numKey" IS NOT NULL);

-- Extended statistics (Prisma's schema cannot express them). Every key value belongs to one
-- field and every field to one team: without these the planner multiplies the selectivities of
-- teamId, fieldId and the key as if they were independent, underestimates a common value
-- (status = 'active') several times over and picks a plan that hashes every matching key.
CREATE STATISTICS "DataRecordKey_prefix_stats" (mcv, dependencies) ON "teamId", "fieldId", prefix FROM "DataRecordKey";
CREATE STATISTICS "DataRecordKey_numKey_stats" (dependencies) ON "teamId", "fieldId", "numKey" FROM "DataRecordKey";
CREATE STATISTICS "DataRecordMembership_stats" (mcv, dependencies) ON "teamId", "collectionId", state FROM "DataRecordMembership";
