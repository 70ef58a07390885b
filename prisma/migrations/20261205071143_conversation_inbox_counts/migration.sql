-- CreateTable
CREATE TABLE "ConversationInboxCount" (
    "teamId" BIGINT NOT NULL,
    "assigneeKey" BIGINT NOT NULL,
    "status" TEXT NOT NULL,
    "channel" TEXT NOT NULL,
    "priority" TEXT NOT NULL,
    "snoozed" BOOLEAN NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "ConversationInboxCount_pkey" PRIMARY KEY ("teamId","assigneeKey","status","channel","priority","snoozed")
);

-- The counts follow every write of "Conversation" (any writer: services, jobs, merges, wake-ups),
-- one statement at a time: the statement's old and new rows net into deltas per cell, written in
-- key order (two statements touching the same cells take their row locks in the same order). Each
-- event has a function of its own: a trigger sees only the transition tables of its event.
CREATE FUNCTION "Conversation_inbox_counts_insert"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "ConversationInboxCount" ("teamId", "assigneeKey", status, channel, priority, snoozed, count)
  SELECT "teamId", "assigneeKey", status, channel, priority, snoozed, sum(d)::int
    FROM (SELECT "teamId", coalesce("assignedUserId", 0) AS "assigneeKey", status, channel, priority, "snoozedUntil" IS NOT NULL AS snoozed, 1 AS d FROM new_rows WHERE "mergedIntoId" IS NULL) deltas
   GROUP BY "teamId", "assigneeKey", status, channel, priority, snoozed
  HAVING sum(d) <> 0
   ORDER BY "teamId", "assigneeKey", status, channel, priority, snoozed
  ON CONFLICT ("teamId", "assigneeKey", status, channel, priority, snoozed)
  DO UPDATE SET count = "ConversationInboxCount".count + EXCLUDED.count;
  RETURN NULL;
END
$$;

CREATE FUNCTION "Conversation_inbox_counts_delete"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "ConversationInboxCount" ("teamId", "assigneeKey", status, channel, priority, snoozed, count)
  SELECT "teamId", "assigneeKey", status, channel, priority, snoozed, sum(d)::int
    FROM (SELECT "teamId", coalesce("assignedUserId", 0) AS "assigneeKey", status, channel, priority, "snoozedUntil" IS NOT NULL AS snoozed, -1 AS d FROM old_rows WHERE "mergedIntoId" IS NULL) deltas
   GROUP BY "teamId", "assigneeKey", status, channel, priority, snoozed
  HAVING sum(d) <> 0
   ORDER BY "teamId", "assigneeKey", status, channel, priority, snoozed
  ON CONFLICT ("teamId", "assigneeKey", status, channel, priority, snoozed)
  DO UPDATE SET count = "ConversationInboxCount".count + EXCLUDED.count;
  RETURN NULL;
END
$$;

CREATE FUNCTION "Conversation_inbox_counts_update"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "ConversationInboxCount" ("teamId", "assigneeKey", status, channel, priority, snoozed, count)
  SELECT "teamId", "assigneeKey", status, channel, priority, snoozed, sum(d)::int
    FROM (SELECT "teamId", coalesce("assignedUserId", 0) AS "assigneeKey", status, channel, priority, "snoozedUntil" IS NOT NULL AS snoozed, 1 AS d FROM new_rows WHERE "mergedIntoId" IS NULL
            UNION ALL
            SELECT "teamId", coalesce("assignedUserId", 0) AS "assigneeKey", status, channel, priority, "snoozedUntil" IS NOT NULL AS snoozed, -1 AS d FROM old_rows WHERE "mergedIntoId" IS NULL) deltas
   GROUP BY "teamId", "assigneeKey", status, channel, priority, snoozed
  HAVING sum(d) <> 0
   ORDER BY "teamId", "assigneeKey", status, channel, priority, snoozed
  ON CONFLICT ("teamId", "assigneeKey", status, channel, priority, snoozed)
  DO UPDATE SET count = "ConversationInboxCount".count + EXCLUDED.count;
  RETURN NULL;
END
$$;

CREATE TRIGGER "Conversation_inbox_count_inserts" AFTER INSERT ON "Conversation"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "Conversation_inbox_counts_insert"();
CREATE TRIGGER "Conversation_inbox_count_updates" AFTER UPDATE ON "Conversation"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "Conversation_inbox_counts_update"();
CREATE TRIGGER "Conversation_inbox_count_deletes" AFTER DELETE ON "Conversation"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "Conversation_inbox_counts_delete"();

-- the conversations there are already
INSERT INTO "ConversationInboxCount" ("teamId", "assigneeKey", status, channel, priority, snoozed, count)
SELECT "teamId", coalesce("assignedUserId", 0), status, channel, priority, "snoozedUntil" IS NOT NULL, count(*)::int
  FROM "Conversation" WHERE "mergedIntoId" IS NULL
 GROUP BY 1, 2, 3, 4, 5, 6;
