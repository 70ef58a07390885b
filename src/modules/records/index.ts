// Data records: typed values in collections, search, batch writes, record-change events.
import { defineModule } from '../../app/module.ts';
import * as schema from './records.schema.ts';

export const recordsModule = defineModule({
  name: 'records',
  description: 'Data records: typed values, search with filters, batch writes, the create menu.',
  schema,
  topics: ['dataRecordChanges'],
});
