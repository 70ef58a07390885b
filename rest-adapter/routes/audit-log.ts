// /v1/audit-log/records/DataRecord/{recordSimplyId} → src/data/audit/audit-log.schema.ts
import { defineRoutes, pageVariables, respondPage } from '../legacy-route.ts';

export const auditLogRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/v1/audit-log/records/DataRecord/{recordSimplyId}',
    summary: "A record's audit log, newest first (limit, offset): action, changes (readable fields), actor, source, requestId, createdAt; deleted records included",
    operation: `query DataRecordAuditLog($id: String!, $limit: Int, $offset: Int) {
      dataRecordAuditLog(dataRecordSimplyId: $id, limit: $limit, offset: $offset) {
        nodes { id action changes { dataFieldSimplyId before after } actor { kind credentialId userSimplyId } source requestId createdAt }
        pagination { total limit offset hasMore } } }`,
    variables: (req) => ({ id: req.params.recordSimplyId, ...pageVariables(req) }),
    respond: respondPage,
  },
]);
