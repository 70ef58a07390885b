-- An API key's expiry is the one stored timestamp a client chooses. Before the input check, "12345"
-- was stored as the year 12345, which no reader can parse, and every read of the key failed.
-- Such a key is repaired to the last moment a four-digit year can name (it stays valid, as its
-- owner intended a far expiry), and the column keeps to that range from now on whatever writes it.
-- A trigger rather than a CHECK constraint: Prisma's schema engine cannot describe a database
-- holding check constraints through the pg driver adapter (it reads their type as a one-byte
-- "char", which the adapter does not carry), and it leaves triggers it does not model alone.
UPDATE "ApiKey" SET "expiresAt" = TIMESTAMP '9999-12-31 23:59:59.999' WHERE "expiresAt" > TIMESTAMP '9999-12-31 23:59:59.999';

CREATE FUNCTION "ApiKey_expiresAt_range"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."expiresAt" < TIMESTAMP '1970-01-01' OR NEW."expiresAt" > TIMESTAMP '9999-12-31 23:59:59.999' THEN
    RAISE EXCEPTION 'ApiKey_expiresAt_range: expiresAt % is outside 1970-01-01 to 9999-12-31', NEW."expiresAt" USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER "ApiKey_expiresAt_range" BEFORE INSERT OR UPDATE OF "expiresAt" ON "ApiKey"
  FOR EACH ROW EXECUTE FUNCTION "ApiKey_expiresAt_range"();
