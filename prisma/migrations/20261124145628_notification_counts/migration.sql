-- CreateTable
CREATE TABLE "UserNotificationCount" (
    "teamId" BIGINT NOT NULL,
    "userId" BIGINT NOT NULL,
    "notificationType" TEXT NOT NULL,
    "category" TEXT NOT NULL,
    "live" INTEGER NOT NULL DEFAULT 0,
    "unread" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "UserNotificationCount_pkey" PRIMARY KEY ("teamId","userId","notificationType")
);

-- The counts follow every change of UserNotification: one statement-level trigger per kind of
-- change, reading the statement's transition tables, so marking 10,000 notifications read adds one
-- upsert per notification type, not one per row. A row counts as live while "deletedAt" is null and
-- as unread while it is live and "readAt" is null. Rows are upserted in key order so concurrent
-- statements take the counter rows' locks in the same order.
CREATE FUNCTION user_notification_count_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "UserNotificationCount" AS c ("teamId", "userId", "notificationType", category, live, unread)
    SELECT "teamId", "userId", "notificationType", min(category),
           count(*) FILTER (WHERE "deletedAt" IS NULL), count(*) FILTER (WHERE "deletedAt" IS NULL AND "readAt" IS NULL)
      FROM new_rows GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT ("teamId", "userId", "notificationType") DO UPDATE SET live = c.live + EXCLUDED.live, unread = c.unread + EXCLUDED.unread;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO "UserNotificationCount" AS c ("teamId", "userId", "notificationType", category, live, unread)
    SELECT "teamId", "userId", "notificationType", min(category), sum(live), sum(unread)
      FROM (
        SELECT "teamId", "userId", "notificationType", category,
               ("deletedAt" IS NULL)::int AS live, ("deletedAt" IS NULL AND "readAt" IS NULL)::int AS unread
          FROM new_rows
        UNION ALL
        SELECT "teamId", "userId", "notificationType", category,
               -("deletedAt" IS NULL)::int, -("deletedAt" IS NULL AND "readAt" IS NULL)::int
          FROM old_rows
      ) AS delta
     GROUP BY 1, 2, 3 HAVING sum(live) <> 0 OR sum(unread) <> 0 ORDER BY 1, 2, 3
    ON CONFLICT ("teamId", "userId", "notificationType") DO UPDATE SET live = c.live + EXCLUDED.live, unread = c.unread + EXCLUDED.unread;
  ELSE
    UPDATE "UserNotificationCount" AS c SET live = c.live - d.live, unread = c.unread - d.unread
      FROM (SELECT "teamId", "userId", "notificationType",
                   count(*) FILTER (WHERE "deletedAt" IS NULL) AS live, count(*) FILTER (WHERE "deletedAt" IS NULL AND "readAt" IS NULL) AS unread
              FROM old_rows GROUP BY 1, 2, 3) AS d
     WHERE c."teamId" = d."teamId" AND c."userId" = d."userId" AND c."notificationType" = d."notificationType";
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER "UserNotification_count_insert" AFTER INSERT ON "UserNotification"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION user_notification_count_apply();
CREATE TRIGGER "UserNotification_count_update" AFTER UPDATE ON "UserNotification"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION user_notification_count_apply();
CREATE TRIGGER "UserNotification_count_delete" AFTER DELETE ON "UserNotification"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION user_notification_count_apply();

-- the notifications written before this migration
INSERT INTO "UserNotificationCount" ("teamId", "userId", "notificationType", category, live, unread)
SELECT "teamId", "userId", "notificationType", min(category),
       count(*) FILTER (WHERE "deletedAt" IS NULL), count(*) FILTER (WHERE "deletedAt" IS NULL AND "readAt" IS NULL)
  FROM "UserNotification" GROUP BY 1, 2, 3;
