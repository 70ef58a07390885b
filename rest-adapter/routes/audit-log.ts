// /v1/audit-log/records/DataRecord/{recordSimplyId} → src/modules/audit-log/audit-log.schema.ts
import { operation, PAGINATION } from '../../src/app/graphql/fragments.ts';
import { AUDIT_LOG_ENTRY } from '../../src/modules/audit-log/audit-log.fragments.ts';
import { defineRoutes, respond, route } from '../route.ts';
import { pageQuery } from '../schemas.ts';

export const auditLogRoutes = defineRoutes([
  route({
    method: 'GET',
    path: '/v1/audit-log/records/DataRecord/{recordSimplyId}',
    summary: "A record's audit log, newest first (limit, offset): action, changes (readable fields), actor, source, requestId, createdAt; deleted records included",
    operation: operation`query DataRecordAuditLog($id: String!, $limit: Int, $offset: Int) {
      dataRecordAuditLog(dataRecordSimplyId: $id, limit: $limit, offset: $offset) { nodes { ${AUDIT_LOG_ENTRY} } pagination { ${PAGINATION} } } }`,
    query: pageQuery,
    variables: ({ params, query }) => ({ id: params.recordSimplyId, ...query }),
    respond: respond.page,
  }),
]);
