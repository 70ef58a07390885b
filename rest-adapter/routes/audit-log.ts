// /v1/audit-log/records/DataRecord/{recordSimplyId} → src/modules/audit-log/audit-log.schema.ts
import { AUDIT_LOG_ENTRY } from '../../src/modules/audit-log/audit-log.fragments.ts';
import { defineRoutes } from '../route.ts';
import { listPage } from '../route-shapes.ts';

export const auditLogRoutes = defineRoutes([
  listPage({
    path: '/v1/audit-log/records/DataRecord/{recordSimplyId}',
    summary: "Get a record's audit log",
    description: "A record's audit log, newest first (limit, offset): action, changes (readable fields), actor, source, requestId, createdAt; deleted records included",
    name: 'DataRecordAuditLog',
    arg: 'dataRecordSimplyId',
    select: AUDIT_LOG_ENTRY,
  }),
]);
