-- DropIndex
DROP INDEX "BackgroundTask_teamId_userId_createdAt_idx";

-- CreateTable
CREATE TABLE "BackgroundTaskCount" (
    "teamId" BIGINT NOT NULL,
    "userId" BIGINT NOT NULL,
    "taskType" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "archived" BOOLEAN NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "BackgroundTaskCount_pkey" PRIMARY KEY ("teamId","userId","taskType","status","archived")
);

-- CreateIndex
CREATE INDEX "BackgroundTask_teamId_clearedAt_createdAt_id_idx" ON "BackgroundTask"("teamId", "clearedAt", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "BackgroundTask_teamId_status_clearedAt_createdAt_id_idx" ON "BackgroundTask"("teamId", "status", "clearedAt", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "BackgroundTask_teamId_taskType_clearedAt_createdAt_id_idx" ON "BackgroundTask"("teamId", "taskType", "clearedAt", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "BackgroundTask_teamId_userId_clearedAt_createdAt_id_taskTyp_idx" ON "BackgroundTask"("teamId", "userId", "clearedAt", "createdAt" DESC, "id" DESC, "taskType");

-- The counts follow every change of BackgroundTask, as UserNotificationCount follows notifications:
-- one statement-level trigger per kind of change over the statement's transition tables, upserting
-- the difference per key in key order (concurrent statements lock counter rows in the same order).
-- A progress update changes no key and writes nothing (HAVING).
CREATE FUNCTION background_task_count_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "BackgroundTaskCount" AS c ("teamId", "userId", "taskType", status, archived, count)
    SELECT "teamId", coalesce("userId", 0), "taskType", status, "clearedAt" IS NOT NULL, count(*)
      FROM new_rows GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT ("teamId", "userId", "taskType", status, archived) DO UPDATE SET count = c.count + EXCLUDED.count;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO "BackgroundTaskCount" AS c ("teamId", "userId", "taskType", status, archived, count)
    SELECT "teamId", u, "taskType", status, archived, sum(delta)
      FROM (
        SELECT "teamId", coalesce("userId", 0) AS u, "taskType", status, "clearedAt" IS NOT NULL AS archived, 1 AS delta FROM new_rows
        UNION ALL
        SELECT "teamId", coalesce("userId", 0), "taskType", status, "clearedAt" IS NOT NULL, -1 FROM old_rows
      ) AS d
     GROUP BY 1, 2, 3, 4, 5 HAVING sum(delta) <> 0 ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT ("teamId", "userId", "taskType", status, archived) DO UPDATE SET count = c.count + EXCLUDED.count;
  ELSE
    UPDATE "BackgroundTaskCount" AS c SET count = c.count - d.n
      FROM (SELECT "teamId", coalesce("userId", 0) AS u, "taskType", status, "clearedAt" IS NOT NULL AS archived, count(*) AS n
              FROM old_rows GROUP BY 1, 2, 3, 4, 5) AS d
     WHERE c."teamId" = d."teamId" AND c."userId" = d.u AND c."taskType" = d."taskType" AND c.status = d.status AND c.archived = d.archived;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER "BackgroundTask_count_insert" AFTER INSERT ON "BackgroundTask"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION background_task_count_apply();
CREATE TRIGGER "BackgroundTask_count_update" AFTER UPDATE ON "BackgroundTask"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION background_task_count_apply();
CREATE TRIGGER "BackgroundTask_count_delete" AFTER DELETE ON "BackgroundTask"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION background_task_count_apply();

-- the tasks written before this migration
INSERT INTO "BackgroundTaskCount" ("teamId", "userId", "taskType", status, archived, count)
SELECT "teamId", coalesce("userId", 0), "taskType", status, "clearedAt" IS NOT NULL, count(*)
  FROM "BackgroundTask" GROUP BY 1, 2, 3, 4, 5;
