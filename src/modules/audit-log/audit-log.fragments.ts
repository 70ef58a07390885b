// The selections of audit-log types that other faces (REST tables, tests) use.
import { fragment } from '../../app/graphql/fragments.ts';

export const AUDIT_LOG_ENTRY = fragment(
  'AuditLogEntryFields',
  'AuditLogEntry',
  'id action changes { dataFieldSimplyId before after } actor { kind credentialId userSimplyId } source requestId createdAt',
);
