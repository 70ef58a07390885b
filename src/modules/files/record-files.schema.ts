// `DataRecord.files`: the files a record's visible file and image fields name, for record reads
// that expand file metadata (REST: expand=files → meta.expanded.files). Service: record-files.service.ts.
import { builder } from '../../app/builder.ts';
import { DataRecordRef } from '../records/index.ts';
import { FileRef } from './files.schema.ts';
import { filesOfRecord } from './record-files.service.ts';

builder.objectField(DataRecordRef, 'files', (t) =>
  t.field({
    type: [FileRef],
    description: 'the files its visible file and image fields name (soft-deleted ones marked isDeleted; destroyed ones left out)',
    resolve: (view, _args, ctx) => filesOfRecord(ctx, view),
  }),
);
