// GraphQL types both faces of views use (views.schema.ts, views.admin.schema.ts), in a file of
// their own so neither schema file imports the other.
import { builder } from '../../app/builder.ts';
import { VIEW_TYPES, type ViewSort } from './views.input.ts';

export const DataViewTypeEnum = builder.enumType('DataViewType', { values: VIEW_TYPES });

export const DataViewSortRef = builder.objectRef<ViewSort>('DataViewSort').implement({
  fields: (t) => ({
    field: t.exposeString('field', { description: 'a field simplyId, or createdAt, updatedAt, calculatedName' }),
    direction: t.exposeString('direction', { description: '"asc" or "desc"' }),
  }),
});
