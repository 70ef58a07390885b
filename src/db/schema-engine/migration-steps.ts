// Reads a migration script rendered by the engine's `diff` (script: true). The renderer writes one
// `-- StepName` comment before each step, e.g. `-- CreateTable`, `-- AlterTable`, `-- DropIndex`.
// That is enough to count steps and to spot the destructive ones, which the wasm build's missing
// evaluateDataLoss would otherwise have reported.

export const EMPTY_MIGRATION_SCRIPT = '-- This is an empty migration.';

export interface MigrationStep {
  /** `CreateTable`, `AlterTable`, `DropTable`, ... */
  kind: string;
  sql: string;
}

const STEP_HEADER = /^-- ([A-Z][A-Za-z]+)$/;

export function isEmptyMigrationScript(script: string): boolean {
  const trimmed = script.trim();
  return trimmed === '' || trimmed === EMPTY_MIGRATION_SCRIPT;
}

export function splitMigrationSteps(script: string): MigrationStep[] {
  const steps: MigrationStep[] = [];
  for (const line of script.split('\n')) {
    const header = STEP_HEADER.exec(line.trim());
    if (header?.[1]) {
      steps.push({ kind: header[1], sql: '' });
    } else if (steps.length > 0) {
      const step = steps[steps.length - 1]!;
      step.sql += `${line}\n`;
    }
  }
  return steps.map((step) => ({ kind: step.kind, sql: step.sql.trim() }));
}

export type DestructiveChange =
  | { stepIndex: number; kind: 'dropTable'; table: QualifiedName }
  | { stepIndex: number; kind: 'dropColumn'; table: QualifiedName; column: string }
  | { stepIndex: number; kind: 'alterColumnType'; table: QualifiedName; column: string }
  | { stepIndex: number; kind: 'addRequiredColumn'; table: QualifiedName; column: string };

export interface QualifiedName {
  schema: string | null;
  name: string;
}

const IDENT = String.raw`"((?:[^"]|"")+)"`;
const TABLE = String.raw`(?:${IDENT}\.)?${IDENT}`;
const DROP_TABLE = new RegExp(String.raw`^DROP TABLE ${TABLE}`, 'i');
const ALTER_TABLE = new RegExp(String.raw`^ALTER TABLE ${TABLE}\s+([\s\S]*?);?$`, 'i');
const DROP_COLUMN = new RegExp(String.raw`^DROP COLUMN ${IDENT}`, 'i');
const ALTER_TYPE = new RegExp(String.raw`^ALTER COLUMN ${IDENT} (?:SET DATA )?TYPE\b`, 'i');
const ADD_COLUMN = new RegExp(String.raw`^ADD COLUMN\s+${IDENT}\s+([\s\S]*)$`, 'i');

/** Steps that can lose data, or cannot run on a table that has rows. */
export function findDestructiveChanges(script: string): DestructiveChange[] {
  const changes: DestructiveChange[] = [];
  splitMigrationSteps(script).forEach((step, stepIndex) => {
    const drop = DROP_TABLE.exec(step.sql);
    if (step.kind === 'DropTable' && drop) {
      changes.push({ stepIndex, kind: 'dropTable', table: qualified(drop[1], drop[2]) });
      return;
    }
    const alter = ALTER_TABLE.exec(step.sql);
    if (step.kind !== 'AlterTable' || !alter) return;
    const table = qualified(alter[1], alter[2]);
    for (const clause of splitClauses(alter[3] ?? '')) {
      const dropped = DROP_COLUMN.exec(clause);
      const retyped = ALTER_TYPE.exec(clause);
      const added = ADD_COLUMN.exec(clause);
      if (dropped?.[1]) changes.push({ stepIndex, kind: 'dropColumn', table, column: unquote(dropped[1]) });
      else if (retyped?.[1]) changes.push({ stepIndex, kind: 'alterColumnType', table, column: unquote(retyped[1]) });
      else if (added?.[1] && /\bNOT NULL\b/i.test(added[2] ?? '') && !/\bDEFAULT\b/i.test(added[2] ?? '')) {
        changes.push({ stepIndex, kind: 'addRequiredColumn', table, column: unquote(added[1]) });
      }
    }
  });
  return changes;
}

/** Splits `ALTER TABLE` actions on top-level commas (not inside parentheses or quotes). */
function splitClauses(actions: string): string[] {
  const clauses: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let current = '';
  for (const char of actions) {
    if (quote) {
      if (char === quote) quote = null;
    } else if (char === '"' || char === "'") {
      quote = char;
    } else if (char === '(') {
      depth += 1;
    } else if (char === ')') {
      depth -= 1;
    } else if (char === ',' && depth === 0) {
      clauses.push(current.trim());
      current = '';
      continue;
    }
    current += char;
  }
  if (current.trim()) clauses.push(current.trim().replace(/;$/, ''));
  return clauses;
}

function qualified(schema: string | undefined, name: string | undefined): QualifiedName {
  return { schema: schema ? unquote(schema) : null, name: unquote(name ?? '') };
}

function unquote(identifier: string): string {
  return identifier.replaceAll('""', '"');
}
