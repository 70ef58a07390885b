// Fresh things for one race, made through the API as the case team's key, so a race that deletes
// or renames something never disturbs another case.
import { randomBytes } from 'node:crypto';
import { uploadFile, type IntentOptions } from '../support/file-uploads.ts';
import { createWizard, updateTask } from '../support/wizard-fixtures.ts';
import type { RaceKit } from './race-kit.ts';

export const unique = (what: string) => `${what} ${randomBytes(4).toString('hex')}`;

export interface FreshCollection {
  id: string;
  fieldIds: string[];
  columnNames: string[];
  recordIds: string[];
}

/** a STANDARD collection with `fields` PLAIN_TEXT fields and `records` records (field i of record r: `v<r>-<i>`) */
export async function freshCollection(kit: RaceKit, options: { fields?: number; records?: number; values?: (record: number) => string[] } = {}): Promise<FreshCollection> {
  const fieldCount = options.fields ?? 2;
  const created = await kit.admin('POST', '/v1/data-collections', {
    name: unique('collection'),
    fields: Array.from({ length: fieldCount }, (_, i) => ({ title: `field ${i}`, dataType: 'PLAIN_TEXT', columnName: `field_${i}` })),
  });
  const fieldIds: string[] = created.fields.map((f: { id: string }) => f.id);
  const columnNames: string[] = created.fields.map((f: { columnName: string }) => f.columnName);
  const values = options.values ?? ((r: number) => fieldIds.map((_, i) => `v${r}-${i}`));
  const recordIds: string[] = [];
  const records = options.records ?? 0;
  if (records > 0) {
    const batch = await kit.admin('POST', '/v1/data-records/batch', {
      dataCollectionSimplyId: created.id,
      records: Array.from({ length: records }, (_, r) => ({ fields: Object.fromEntries(fieldIds.map((f, i) => [f, values(r)[i]])) })),
    });
    recordIds.push(...batch.results.map((result: { dataRecordSimplyId: string }) => result.dataRecordSimplyId));
  }
  return { id: created.id, fieldIds, columnNames, recordIds };
}

/** a SMART collection over `source` selecting the records whose first field equals `value` */
export async function freshSmartCollection(kit: RaceKit, source: FreshCollection, value: string): Promise<string> {
  const smart = await kit.admin('POST', '/v1/data-collections', {
    name: unique('smart'),
    type: 'SMART',
    parentDataCollectionSimplyId: source.id,
    filterCriteria: [{ field: source.fieldIds[0], operator: 'eq', value }],
  });
  return smart.id;
}

/** an automation (disabled) on `collection` with `actions` UPDATE_FIELDS actions */
export async function freshAutomation(kit: RaceKit, collection: FreshCollection, actions: number): Promise<{ id: string; actionIds: string[] }> {
  const created = await kit.admin('POST', '/v1/automations', {
    name: unique('automation'),
    triggerType: 'RECORD_CREATED',
    dataCollectionSimplyId: collection.id,
    isEnabled: false,
    actions: Array.from({ length: actions }, (_, i) => ({ actionType: 'UPDATE_FIELDS', actionConfig: { fields: { [collection.fieldIds[0]!]: `a${i}` } } })),
  });
  return { id: created.id, actionIds: created.actions.map((a: { id: string }) => a.id) };
}

export async function freshRole(kit: RaceKit): Promise<string> {
  return (await kit.admin('POST', '/v1/team-roles', { name: unique('role') })).id;
}

export async function freshWebhook(kit: RaceKit): Promise<string> {
  return (await kit.admin('POST', '/v1/webhooks', { eventType: 'DATA_RECORD_CREATED', targetUrl: 'https://127.0.0.1:9/hooks/in', retryCount: 0 })).id;
}

export async function freshApiKey(kit: RaceKit): Promise<{ id: string; key: string }> {
  const created = await kit.admin('POST', '/v1/api-keys', { name: unique('key') });
  return { id: created.id, key: created.fullApiKey };
}

/** a wizard of one UPDATE_DATA_RECORD task collecting the collection's first field */
export async function freshWizard(kit: RaceKit, collection: FreshCollection): Promise<string> {
  const wizard = await createWizard(kit.server, kit.team.apiKey, {
    name: unique('wizard'),
    dataCollectionSimplyId: collection.id,
    steps: [{ title: 'step', tasks: [updateTask('task', collection.fieldIds[0]!)] }],
  });
  return wizard.dataWizardSimplyId;
}

/** a media-library folder (at the root, or in `parent`) */
export async function freshFolder(kit: RaceKit, parent?: string): Promise<string> {
  return (await kit.admin('POST', '/v1/files/folders', { name: unique('folder'), ...(parent ? { parentFileFolderSimplyId: parent } : {}) })).fileFolderSimplyId;
}

/** a file uploaded through the whole flow by the team's key (default: a small text file of its own bytes) */
export async function freshFile(kit: RaceKit, bytes: Buffer = Buffer.from(`${unique('contents')}\n`), options: IntentOptions = {}): Promise<string> {
  const upload = await uploadFile(kit.server, kit.team.apiKey, bytes, options);
  if (upload.status !== 'COMPLETED') throw new Error(`set-up upload ended ${upload.status}: ${upload.rejectionReason} ${upload.rejectionMessage}`);
  return upload.fileSimplyId;
}

/** reads every page of a list route (as the team's key) */
export async function readAll(kit: RaceKit, path: string): Promise<any[]> {
  const out: any[] = [];
  for (let offset = 0; ; offset += 100) {
    const response = await kit.adminResponse('GET', `${path}${path.includes('?') ? '&' : '?'}limit=100&offset=${offset}`);
    if (response.status !== 200) throw new Error(`readAll ${path}: ${response.status} ${response.text.slice(0, 300)}`);
    out.push(...response.body.data);
    if (!response.body.meta.pagination.hasMore) return out;
  }
}
