// Our evaluateDataLoss (the wasm build cannot run the engine's): destructive steps of the next
// migration, reported only when the development database holds rows they would affect.
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { parseDatabaseUrl } from '../../src/db/schema-engine/connection-config.ts';
import { evaluateDataLoss } from '../../src/db/schema-engine/data-loss.ts';
import { findDestructiveChanges, isEmptyMigrationScript, splitMigrationSteps } from '../../src/db/schema-engine/migration-steps.ts';
import { query, useThrowawayDatabase } from './helpers.ts';

const serverUrl = inject('databaseUrl');

// the shape the engine renders (see prisma/migrations/*/migration.sql)
const SCRIPT = `-- DropForeignKey
ALTER TABLE "Order" DROP CONSTRAINT "Order_customerId_fkey";

-- AlterTable
ALTER TABLE "Customer" DROP COLUMN "nickname",
ADD COLUMN     "tier" TEXT NOT NULL,
ADD COLUMN     "note" TEXT NOT NULL DEFAULT 'x;y',
ALTER COLUMN "score" SET DATA TYPE INTEGER;

-- DropTable
DROP TABLE "Order";

-- DropTable
DROP TABLE "EmptyOne";
`;

describe('migration steps', () => {
  it('are counted and the destructive ones found', () => {
    expect(splitMigrationSteps(SCRIPT).map((step) => step.kind)).toEqual(['DropForeignKey', 'AlterTable', 'DropTable', 'DropTable']);
    expect(findDestructiveChanges(SCRIPT)).toEqual([
      { stepIndex: 1, kind: 'dropColumn', table: { schema: null, name: 'Customer' }, column: 'nickname' },
      { stepIndex: 1, kind: 'addRequiredColumn', table: { schema: null, name: 'Customer' }, column: 'tier' },
      { stepIndex: 1, kind: 'alterColumnType', table: { schema: null, name: 'Customer' }, column: 'score' },
      { stepIndex: 2, kind: 'dropTable', table: { schema: null, name: 'Order' } },
      { stepIndex: 3, kind: 'dropTable', table: { schema: null, name: 'EmptyOne' } },
    ]);
  });

  it('of an empty migration are none', () => {
    expect(isEmptyMigrationScript('-- This is an empty migration.\n')).toBe(true);
    expect(isEmptyMigrationScript(SCRIPT)).toBe(false);
  });
});

describe('evaluateDataLoss', () => {
  const db = useThrowawayDatabase(serverUrl, 'dataloss');
  beforeAll(async () => {
    await query(
      db.url,
      `CREATE TABLE "Customer" ("id" INTEGER PRIMARY KEY, "nickname" TEXT, "score" BIGINT);
       INSERT INTO "Customer" VALUES (1, 'ann', 5), (2, NULL, NULL);
       CREATE TABLE "Order" ("id" INTEGER PRIMARY KEY, "customerId" INTEGER REFERENCES "Customer");
       INSERT INTO "Order" VALUES (10, 1);
       CREATE TABLE "EmptyOne" ("id" INTEGER PRIMARY KEY);`,
    );
  });

  it('warns about the data each step would lose, and refuses a required column on a non-empty table', async () => {
    const result = await evaluateDataLoss(parseDatabaseUrl(db.url), 'svc-test-dataloss', SCRIPT);

    expect(result.migrationSteps).toBe(4);
    expect(result.warnings).toEqual([
      { stepIndex: 1, message: 'You are about to drop the column `nickname` on the `Customer` table, which still contains 1 non-null values.' },
      { stepIndex: 1, message: expect.stringMatching(/^You are about to alter the column `score` on the `Customer` table, which contains 1 non-null values/) },
      { stepIndex: 2, message: 'You are about to drop the `Order` table, which is not empty (1 rows).' },
    ]);
    expect(result.unexecutableSteps).toEqual([
      { stepIndex: 1, message: expect.stringMatching(/^Added the required column `tier` to the `Customer` table without a default value. There are 2 rows/) },
    ]);
  });
});
