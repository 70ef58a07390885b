-- A page of records is chosen from DataRecordMembership by an index-only scan, which also reads the
-- heap for every row that sits on a page the visibility map does not mark all-visible. Only VACUUM
-- sets those marks, and by default autovacuum waits until inserts reach 20 % of the table: after an
-- import, the newest records (the first page of every list) would be read through the heap for a
-- long time. Vacuuming after 2 % (and at least 1,000 rows) keeps those scans index-only.
ALTER TABLE "DataRecordMembership" SET (autovacuum_vacuum_insert_scale_factor = 0.02, autovacuum_vacuum_insert_threshold = 1000);
