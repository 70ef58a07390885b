// The audit log of record changes.
import { defineModule } from '../../app/module.ts';
import * as schema from './audit-log.schema.ts';

export const auditLogModule = defineModule({
  name: 'audit-log',
  description: 'Who changed which record, when and through which credential: the audit log of a record.',
  schema,
});
