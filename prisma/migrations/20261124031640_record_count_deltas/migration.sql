-- CreateTable
CREATE TABLE "DataRecordCountDelta" (
    "id" BIGSERIAL NOT NULL,
    "teamId" BIGINT NOT NULL,
    "collectionId" BIGINT NOT NULL,
    "active" BIGINT NOT NULL,
    "archived" BIGINT NOT NULL,

    CONSTRAINT "DataRecordCountDelta_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "DataRecordCountDelta_teamId_collectionId_active_archived_idx" ON "DataRecordCountDelta"("teamId", "collectionId", "active", "archived");

-- Record totals (docs/architecture.md "Record totals"; not modelled in schema.prisma). Every
-- statement that inserts, updates or deletes memberships adds one delta row per collection it
-- changed, in the writer's transaction: every write path (services, cascades, raw SQL) is counted,
-- a rolled-back write counts nothing, and writers only insert, so none waits for another.
-- Statement-level triggers see the statement's rows at once through transition tables; a trigger
-- with transition tables fires for one event only, hence three triggers on one function.
CREATE FUNCTION "DataRecordMembership_count_deltas"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "DataRecordCountDelta" ("teamId", "collectionId", "active", "archived")
    SELECT "teamId", "collectionId", count(*) FILTER (WHERE state = 'ACTIVE'), count(*) FILTER (WHERE state = 'ARCHIVED')
      FROM new_memberships GROUP BY "teamId", "collectionId"
    HAVING count(*) FILTER (WHERE state <> 'DELETED') > 0;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "DataRecordCountDelta" ("teamId", "collectionId", "active", "archived")
    SELECT "teamId", "collectionId", -count(*) FILTER (WHERE state = 'ACTIVE'), -count(*) FILTER (WHERE state = 'ARCHIVED')
      FROM old_memberships GROUP BY "teamId", "collectionId"
    HAVING count(*) FILTER (WHERE state <> 'DELETED') > 0;
  ELSE
    -- most updates only move sort keys (a record edit): their deltas net to zero and add no row
    INSERT INTO "DataRecordCountDelta" ("teamId", "collectionId", "active", "archived")
    SELECT "teamId", "collectionId", sum(a), sum(ar)
      FROM (SELECT "teamId", "collectionId", (state = 'ACTIVE')::int AS a, (state = 'ARCHIVED')::int AS ar FROM new_memberships
            UNION ALL
            SELECT "teamId", "collectionId", -(state = 'ACTIVE')::int, -(state = 'ARCHIVED')::int FROM old_memberships) d
     GROUP BY "teamId", "collectionId"
    HAVING sum(a) <> 0 OR sum(ar) <> 0;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER "DataRecordMembership_count_inserts" AFTER INSERT ON "DataRecordMembership"
  REFERENCING NEW TABLE AS new_memberships FOR EACH STATEMENT EXECUTE FUNCTION "DataRecordMembership_count_deltas"();
CREATE TRIGGER "DataRecordMembership_count_updates" AFTER UPDATE ON "DataRecordMembership"
  REFERENCING OLD TABLE AS old_memberships NEW TABLE AS new_memberships FOR EACH STATEMENT EXECUTE FUNCTION "DataRecordMembership_count_deltas"();
CREATE TRIGGER "DataRecordMembership_count_deletes" AFTER DELETE ON "DataRecordMembership"
  REFERENCING OLD TABLE AS old_memberships FOR EACH STATEMENT EXECUTE FUNCTION "DataRecordMembership_count_deltas"();

-- Backfill after the triggers exist, in the same (implicit) transaction: CREATE TRIGGER locks the
-- membership table against writes until commit, so no write falls between the count and the
-- triggers. Only memberships of existing collections are counted.
INSERT INTO "DataRecordCountDelta" ("teamId", "collectionId", "active", "archived")
SELECT m."teamId", m."collectionId", count(*) FILTER (WHERE m.state = 'ACTIVE'), count(*) FILTER (WHERE m.state = 'ARCHIVED')
  FROM "DataRecordMembership" m
 WHERE EXISTS (SELECT 1 FROM "DataCollection" c WHERE c."teamId" = m."teamId" AND c.id = m."collectionId")
 GROUP BY m."teamId", m."collectionId"
HAVING count(*) FILTER (WHERE m.state <> 'DELETED') > 0;
