// `svc export` and `svc import`: a collection to CSV and CSV into a collection, as background
// tasks on a running platform, through the same REST routes and permissions as any client
// (POST /v1/background-tasks, GET /v1/background-tasks/{id}, the result download). They sign in
// as a user (cli-sign-in.ts), follow the task's progress (task-follow.ts) and exit 0 COMPLETED,
// 3 PARTIAL_SUCCESS, 1 FAILED or refused, 2 for a mistake on the command line.
import { TASK_COMMANDS_USAGE } from './task-commands-usage.ts';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ApiCallError, type ApiClient } from '../../../app/cli/api-client.ts';
import { CONNECTION_OPTIONS, signIn, UsageError, type ConnectionFlags } from '../../../app/cli/cli-sign-in.ts';
import { uploadCsv } from './csv-upload.ts';
import { errorLines, exitCodeOf, followTask, progressDisplay, type TaskDetail } from './task-follow.ts';



const SYSTEM_COLUMNS = ['CALCULATED_NAME', 'RECORD_SIMPLY_ID', 'CREATED_AT', 'UPDATED_AT', 'APPROVAL_STATUS'];
const IMPORT_MODES = ['create', 'update', 'upsert'];

const list = (value: string | undefined): string[] | undefined =>
  value === undefined
    ? undefined
    : value
        .split(',')
        .map((v) => v.trim())
        .filter((v) => v !== '');

export interface ExportArgs {
  collection?: string;
  view?: string;
  fields?: string;
  'system-columns'?: string;
  filter?: string;
  records?: string;
}

/** The DATA_EXPORT queueData of the command line (docs/api/background-tasks.md "Data export"). */
export function exportQueueData(args: ExportArgs): Record<string, unknown> {
  if (Boolean(args.collection) === Boolean(args.view)) throw new UsageError('give exactly one of --collection and --view');
  const fields = list(args.fields);
  if (!fields?.length) throw new UsageError('--fields is required: the dataFieldSimplyIds to export, comma-separated, in column order');
  const queueData: Record<string, unknown> = args.collection ? { dataCollectionSimplyId: args.collection } : { dataViewSimplyId: args.view };
  queueData.dataFieldSimplyIds = fields;
  const systemColumns = list(args['system-columns']?.toUpperCase());
  if (systemColumns) {
    const unknown = systemColumns.filter((c) => !SYSTEM_COLUMNS.includes(c));
    if (unknown.length) throw new UsageError(`--system-columns: unknown ${unknown.join(', ')} (known: ${SYSTEM_COLUMNS.join(', ')})`);
    queueData.systemColumns = systemColumns;
  }
  if (args.filter !== undefined) {
    try {
      queueData.requestFilter = JSON.parse(args.filter);
    } catch (error) {
      throw new UsageError(`--filter is not JSON: ${(error as Error).message}`);
    }
  }
  const records = list(args.records);
  if (records) queueData.dataRecordSimplyIds = records;
  return queueData;
}

export interface ImportArgs {
  collection?: string;
  mapping?: string[];
  mode?: string;
  match?: string;
  'dry-run'?: boolean;
}

/** 'Header=fieldId,Other=fieldId' (repeatable) → [{ column, dataFieldSimplyId }]; a header may hold '=' (split at the last). */
export function parseMapping(values: readonly string[]): { column: string; dataFieldSimplyId: string }[] {
  const mapping: { column: string; dataFieldSimplyId: string }[] = [];
  for (const pair of values.flatMap((v) => v.split(','))) {
    if (pair.trim() === '') continue;
    const at = pair.lastIndexOf('=');
    const column = pair.slice(0, at).trim();
    const dataFieldSimplyId = pair.slice(at + 1).trim();
    if (at < 0 || !column || !dataFieldSimplyId) throw new UsageError(`--mapping: "${pair}" is not Header=fieldId`);
    mapping.push({ column, dataFieldSimplyId });
  }
  if (mapping.length === 0) throw new UsageError("--mapping is required: 'CSV header=dataFieldSimplyId,…'");
  return mapping;
}

/** The BULK_DATA_IMPORT queueData of the command line (docs/api/background-tasks.md "Data import"). */
export function importQueueData(args: ImportArgs, fileSimplyId: string): Record<string, unknown> {
  if (!args.collection) throw new UsageError('--collection is required');
  const mode = (args.mode ?? 'create').toLowerCase();
  if (!IMPORT_MODES.includes(mode)) throw new UsageError(`--mode must be one of ${IMPORT_MODES.join(', ')}`);
  if (mode !== 'create' && !args.match) throw new UsageError(`--mode ${mode} needs --match <fieldId>: the field that finds the record to update`);
  return {
    fileSimplyId,
    dataCollectionSimplyId: args.collection,
    mapping: parseMapping(args.mapping ?? []),
    mode: mode.toUpperCase(),
    ...(args.match ? { matchFieldSimplyId: args.match } : {}),
    dryRun: Boolean(args['dry-run']),
  };
}

async function startTask(client: ApiClient, type: string, queueData: Record<string, unknown>): Promise<string> {
  const task = await client.call('POST', '/v1/background-tasks', { enumBackgroundTaskTypeId: type, queueData });
  const id: string = task.backgroundTaskSimplyId ?? task.id;
  process.stderr.write(`${type} task ${id} queued\n`);
  return id;
}

/** The final report: error entries on stderr, one JSON line on stdout (unless stdout carries the CSV). */
function report(task: TaskDetail, extra: Record<string, unknown>, jsonToStdout: boolean): number {
  const errors = task.errors ?? [];
  const count = task.errorCount ?? errors.length;
  process.stderr.write(`${task.status}${count ? ` with ${count} error${count === 1 ? '' : 's'}` : ''}\n`);
  for (const line of errorLines(errors, count)) process.stderr.write(`${line}\n`);
  const summary = JSON.stringify({ backgroundTaskSimplyId: task.backgroundTaskSimplyId, status: task.status, result: task.result, ...extra });
  (jsonToStdout ? process.stdout : process.stderr).write(`${summary}\n`);
  return exitCodeOf(task.status);
}

/** A file name of the platform's, kept to its last part (it never picks the folder). */
function safeLocalName(name: unknown): string {
  const base = path.basename(typeof name === 'string' && name ? name : 'export.csv');
  return base.replace(/[^\w.\- ]/g, '_') || 'export.csv';
}

export async function exportCommand(argv: string[]): Promise<number> {
  return guarded('export', async () => {
    const { values } = parseArgs({
      args: argv,
      options: {
        ...CONNECTION_OPTIONS,
        collection: { type: 'string' },
        view: { type: 'string' },
        fields: { type: 'string' },
        'system-columns': { type: 'string' },
        filter: { type: 'string' },
        records: { type: 'string' },
        out: { type: 'string' },
      },
    });
    const queueData = exportQueueData(values);
    const session = await signIn(values as ConnectionFlags);
    try {
      const { client } = session;
      const id = await startTask(client, 'DATA_EXPORT', queueData);
      const task = await followTask(client, id, progressDisplay());
      if (task.status !== 'COMPLETED') return report(task, {}, true);
      const download = await client.call('GET', `/v1/background-tasks/${encodeURIComponent(id)}/result-download`);
      const toStdout = values.out === '-';
      const out = toStdout ? null : (values.out ?? safeLocalName(download.filename));
      const bytes = await client.download(download.url, out ?? process.stdout);
      if (out) process.stderr.write(`wrote ${bytes} bytes to ${out}\n`);
      return report(task, out ? { out: path.resolve(out), bytes } : { bytes }, !toStdout);
    } finally {
      await session.signOut();
    }
  });
}

export async function importCommand(argv: string[]): Promise<number> {
  return guarded('import', async () => {
    const { values } = parseArgs({
      args: argv,
      options: {
        ...CONNECTION_OPTIONS,
        collection: { type: 'string' },
        file: { type: 'string' },
        mapping: { type: 'string', multiple: true },
        mode: { type: 'string' },
        match: { type: 'string' },
        'dry-run': { type: 'boolean' },
      },
    });
    if (!values.file) throw new UsageError('--file is required: the CSV to import');
    if (!fs.existsSync(values.file) || !fs.statSync(values.file).isFile()) throw new UsageError(`--file ${values.file}: no such file`);
    // checked before anything is uploaded
    importQueueData(values, 'pending');
    const session = await signIn(values as ConnectionFlags);
    try {
      const { client } = session;
      const fileSimplyId = await uploadCsv(client, values.file);
      process.stderr.write(`uploaded ${path.basename(values.file)} as ${fileSimplyId}\n`);
      const id = await startTask(client, 'BULK_DATA_IMPORT', importQueueData(values, fileSimplyId));
      const task = await followTask(client, id, progressDisplay());
      return report(task, { fileSimplyId }, true);
    } finally {
      await session.signOut();
    }
  });
}

/** Usage mistakes exit 2 with the usage; refusals of the platform exit 1 with its code and details. */
async function guarded(command: string, body: () => Promise<number>): Promise<number> {
  try {
    return await body();
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`svc ${command}: ${(error as Error).message}\n\nusage:\n${TASK_COMMANDS_USAGE}`);
      return 2;
    }
    if (error instanceof ApiCallError) {
      process.stderr.write(`svc ${command}: ${error.code}: ${error.message}\n`);
      for (const detail of error.details) process.stderr.write(`  ${detailLine(detail)}\n`);
      if (error.code === 'IDP_REQUIRED') process.stderr.write('  background tasks are started by a person: sign in with --email, or pass a user access token with --token (not an API key)\n');
      return 1;
    }
    throw error;
  }
}

function detailLine(detail: unknown): string {
  if (detail && typeof detail === 'object') {
    const { field, message } = detail as { field?: unknown; message?: unknown };
    if (message !== undefined) return field !== undefined ? `${String(field)}: ${String(message)}` : String(message);
  }
  return JSON.stringify(detail);
}
