// A record as one caller may see it: its row, the collection it is read through, and the fields to
// show (the readable ones, narrowed by a `fields` projection). Its getters are the record's public
// properties, the ones every face serves under these names: GraphQL reads them as plain
// properties (graphql-jit inlines a property read where it would call a resolver per value, which
// on a page of records was a good share of the page's time), and `fields` is decoded only when read.
import type { CollectionAccess } from '../schema/access.ts';
import type { FieldDefinition } from '../schema/team-schema.ts';
import { decodeRecordFields } from '../values/index.ts';
import type { RecordRow } from './records.sql.ts';

export class RecordView {
  readonly row: RecordRow;
  readonly access: CollectionAccess;
  readonly shown: FieldDefinition[];

  constructor(row: RecordRow, access: CollectionAccess, shown: FieldDefinition[] = access.readable) {
    this.row = row;
    this.access = access;
    this.shown = shown;
  }

  get id(): string {
    return this.row.simplyId;
  }

  get dataRecordSimplyId(): string {
    return this.row.simplyId;
  }

  /** the collection the record was created in (a smart collection reads its parent's records) */
  get dataCollectionSimplyId(): string {
    return this.access.schema.collectionsById.get(this.row.collectionId)?.simplyId ?? this.access.collection.simplyId;
  }

  get name(): string {
    return this.row.calculatedName;
  }

  /** values keyed by field simplyId: the shown fields only */
  get fields(): Record<string, unknown> {
    return decodeRecordFields(this.shown, this.row.values);
  }

  get isArchived(): boolean {
    return this.row.isArchived;
  }

  get createdAt(): string {
    return this.row.createdAt;
  }

  get updatedAt(): string {
    return this.row.updatedAt;
  }
}
