// Fields that the item types (a row plus what the service resolved around it) share.
import type { FieldRef } from '@pothos/core';
import type { BuilderTypes } from '../builder.ts';

type Item = { row: { simplyId: string } };
type StringField = FieldRef<BuilderTypes, string, 'Object'>;

/** `id` and its named twin (e.g. `dataViewSimplyId`): an item type exposes its row's simplyId under both names. */
export function simplyIdFields<K extends string, T extends Item>(t: PothosSchemaTypes.ObjectFieldBuilder<BuilderTypes, T>, name: K) {
  const simplyId = (): StringField => t.string({ resolve: (item) => item.row.simplyId });
  return { id: simplyId(), ...({ [name]: simplyId() } as { [P in K]: StringField }) };
}
