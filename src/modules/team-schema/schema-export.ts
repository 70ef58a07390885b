// The portable team schema (GET /v1/team-schema/export): collections, fields, views, wizards and
// automations, every reference by simplyId (Document 1 §9 rule 3), never an internal id. The same
// document is the snapshot stored with each schema version, so versions compare structurally.
import type { FieldDefinition } from '../../kernel/index.ts';
import { exportAutomations } from '../automations/index.ts';
import { exportWizards } from '../wizards/index.ts';
import { type Tx } from '../../app/transaction.ts';

/** A field's portable columns: its definition without internal ids and timestamps. */
export type ExportedField = Pick<FieldDefinition, 'dataFieldSimplyId' | 'title' | 'columnName' | 'dataType' | 'isRequired' | 'sortOrder'> & { config: unknown };

export interface ExportedCollection {
  dataCollectionSimplyId: string;
  name: unknown;
  singularName: unknown;
  pluralName: unknown;
  archetype: string | null;
  type: string;
  parentDataCollectionSimplyId: string | null;
  dataRecordCalculatedNameFormula: string | null;
  filterCriteria: unknown;
  isArchived: boolean;
  fields: ExportedField[];
}

export interface ExportedView {
  dataViewSimplyId: string;
  dataCollectionSimplyId: string;
  name: unknown;
  description: string | null;
  enumDataViewTypeId: string;
  isPublished: boolean;
  config: unknown;
}

export interface TeamSchemaDocument {
  formatVersion: 1;
  collections: ExportedCollection[];
  views: ExportedView[];
  /** src/modules/wizards/wizard-export.ts */
  wizards: unknown[];
  /** src/modules/automations/automation-export.ts */
  automations: unknown[];
}

/** Reads the whole schema of a team in a few queries, inside the caller's transaction. */
export async function exportTeamSchema(tx: Tx, teamId: bigint): Promise<TeamSchemaDocument> {
  const [collections, fields, views] = await Promise.all([
    tx.dataCollection.findMany({ where: { teamId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] }),
    tx.dataField.findMany({ where: { teamId }, orderBy: [{ collectionId: 'asc' }, { sortOrder: 'asc' }, { id: 'asc' }] }),
    tx.dataView.findMany({ where: { teamId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] }),
  ]);
  const simplyIdOf = new Map(collections.map((c) => [String(c.id), c.simplyId]));
  const [wizards, automations] = await Promise.all([exportWizards(tx, teamId, simplyIdOf), exportAutomations(tx, teamId, simplyIdOf)]);
  const fieldsOf = new Map<string, ExportedField[]>();
  for (const f of fields) {
    const list = fieldsOf.get(String(f.collectionId)) ?? [];
    list.push({ dataFieldSimplyId: f.simplyId, title: f.title, columnName: f.columnName, dataType: f.dataType, isRequired: f.isRequired, sortOrder: f.sortOrder, config: f.config });
    fieldsOf.set(String(f.collectionId), list);
  }
  return {
    formatVersion: 1,
    collections: collections.map((c) => ({
      dataCollectionSimplyId: c.simplyId,
      name: c.name,
      singularName: c.singularName,
      pluralName: c.pluralName,
      archetype: c.archetype,
      type: c.type,
      parentDataCollectionSimplyId: c.parentId === null ? null : (simplyIdOf.get(String(c.parentId)) ?? null),
      dataRecordCalculatedNameFormula: c.calculatedNameFormula,
      filterCriteria: c.filterCriteria,
      isArchived: c.isArchived,
      fields: fieldsOf.get(String(c.id)) ?? [],
    })),
    views: views.map((v) => ({
      dataViewSimplyId: v.simplyId,
      dataCollectionSimplyId: simplyIdOf.get(String(v.collectionId)) ?? '',
      name: v.name,
      description: v.description,
      enumDataViewTypeId: v.viewType,
      isPublished: v.isPublished,
      config: v.config,
    })),
    wizards,
    automations,
  };
}
