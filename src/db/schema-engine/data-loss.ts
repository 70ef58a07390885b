// Our evaluateDataLoss (the wasm build's needs a shadow database it cannot get): the destructive
// steps of the next migration, reported like the native engine does, i.e. only when the
// development database actually holds rows that would be affected.
import type { EvaluateDataLossOutput, MigrationFeedback } from '@prisma/schema-engine-wasm/schema_engine_bg';
import pg from 'pg';
import { clientConfig, quoteIdentifier, type PgConnectionFields } from './connection-config.ts';
import { findDestructiveChanges, splitMigrationSteps, type DestructiveChange, type QualifiedName } from './migration-steps.ts';

const UNDEFINED_TABLE = '42P01';
const UNDEFINED_COLUMN = '42703';

export async function evaluateDataLoss(
  database: PgConnectionFields,
  applicationName: string,
  script: string,
): Promise<EvaluateDataLossOutput> {
  const migrationSteps = splitMigrationSteps(script).length;
  const changes = findDestructiveChanges(script);
  const warnings: MigrationFeedback[] = [];
  const unexecutableSteps: MigrationFeedback[] = [];
  if (changes.length === 0) return { migrationSteps, warnings, unexecutableSteps };

  const client = new pg.Client(clientConfig(database, applicationName));
  await client.connect();
  try {
    for (const change of changes) {
      const count = await countAffected(client, database.schema, change);
      if (count === 0) continue;
      const feedback = { stepIndex: change.stepIndex, message: describe(change, count) };
      (change.kind === 'addRequiredColumn' ? unexecutableSteps : warnings).push(feedback);
    }
  } finally {
    await client.end();
  }
  return { migrationSteps, warnings, unexecutableSteps };
}

async function countAffected(client: pg.Client, defaultSchema: string, change: DestructiveChange): Promise<number> {
  const table = tableSql(change.table, defaultSchema);
  const sql =
    change.kind === 'dropTable' || change.kind === 'addRequiredColumn'
      ? `SELECT count(*)::int AS n FROM ${table}`
      : `SELECT count(${quoteIdentifier(change.column)})::int AS n FROM ${table}`;
  try {
    const result = await client.query<{ n: number }>(sql);
    return result.rows[0]?.n ?? 0;
  } catch (error) {
    // created earlier in the same migration: nothing to lose yet
    const code = (error as { code?: string }).code;
    if (code === UNDEFINED_TABLE || code === UNDEFINED_COLUMN) return 0;
    throw error;
  }
}

function tableSql(table: QualifiedName, defaultSchema: string): string {
  return `${quoteIdentifier(table.schema ?? defaultSchema)}.${quoteIdentifier(table.name)}`;
}

function describe(change: DestructiveChange, count: number): string {
  const table = change.table.name;
  switch (change.kind) {
    case 'dropTable':
      return `You are about to drop the \`${table}\` table, which is not empty (${count} rows).`;
    case 'dropColumn':
      return `You are about to drop the column \`${change.column}\` on the \`${table}\` table, which still contains ${count} non-null values.`;
    case 'alterColumnType':
      return `You are about to alter the column \`${change.column}\` on the \`${table}\` table, which contains ${count} non-null values. The data in that column will be cast to the new type.`;
    case 'addRequiredColumn':
      return `Added the required column \`${change.column}\` to the \`${table}\` table without a default value. There are ${count} rows in this table, it is not possible to execute this step.`;
  }
}
