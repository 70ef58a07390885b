// Data records: typed values in collections, search, batch writes, record-change events, and the
// record totals kept as per-collection counters (record-counts.sql.ts, records.jobs.ts).
import { defineModule } from '../../app/module.ts';
import * as schema from './records.schema.ts';
import { recordJobs } from '../../kernel/index.ts';

export const recordsModule = defineModule({
  name: 'records',
  description: 'Data records: typed values, search with filters, batch writes, the create menu.',
  schema,
  jobs: (services) => recordJobs(services),
  topics: ['dataRecordChanges'],
});
