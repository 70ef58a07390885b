-- An API key's expiry is the one stored timestamp a client chooses. Before the input check, "12345"
-- was stored as the year 12345, which no reader can parse, and every read of the key failed.
-- Such a key is repaired to the last moment a four-digit year can name (it stays valid, as its
-- owner intended a far expiry), and the column keeps to that range from now on whatever writes it.
-- Not modelled in schema.prisma: Prisma leaves check constraints it does not model alone.
UPDATE "ApiKey" SET "expiresAt" = TIMESTAMP '9999-12-31 23:59:59.999' WHERE "expiresAt" > TIMESTAMP '9999-12-31 23:59:59.999';
ALTER TABLE "ApiKey" ADD CONSTRAINT "ApiKey_expiresAt_range" CHECK ("expiresAt" >= TIMESTAMP '1970-01-01' AND "expiresAt" <= TIMESTAMP '9999-12-31 23:59:59.999');
