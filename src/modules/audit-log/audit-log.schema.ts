// GraphQL face of the record audit log. REST: rest-adapter/routes/audit-log.ts.
import { tier } from '../../app/auth/tiers.ts';
import { builder } from '../../app/builder.ts';
import { type PaginationShape } from '../../app/paging.ts';
import { pageById } from '../../app/graphql/args.ts';
import { PaginationRef } from '../../app/graphql/page.ts';
import { recordAuditLog, type AuditChange, type AuditItem } from './audit-log.service.ts';

const AuditLogChangeRef = builder.objectRef<AuditChange>('AuditLogChange').implement({
  fields: (t) => ({
    dataFieldSimplyId: t.exposeString('dataFieldSimplyId'),
    before: t.field({ type: 'JSON', nullable: true, description: 'the value before (wire form); null on create', resolve: (c) => c.before }),
    after: t.field({ type: 'JSON', nullable: true, description: 'the value after (wire form); null when cleared', resolve: (c) => c.after }),
  }),
});

const AuditLogActorRef = builder.objectRef<AuditItem['actor']>('AuditLogActor').implement({
  fields: (t) => ({
    kind: t.exposeString('kind', { description: 'API_KEY, SESSION_TOKEN, USER, …' }),
    credentialId: t.exposeString('credentialId', { nullable: true, description: 'API key simplyId, sess_ id or user simplyId' }),
    userSimplyId: t.exposeString('userSimplyId', { nullable: true }),
  }),
});

const AuditLogEntryRef = builder.objectRef<AuditItem>('AuditLogEntry').implement({
  fields: (t) => ({
    id: t.exposeString('id', { description: 'stable, opaque entry id (aud-…)' }),
    entityType: t.exposeString('entityType'),
    entitySimplyId: t.exposeString('entitySimplyId'),
    action: t.exposeString('action', { description: 'CREATE, UPDATE or DELETE' }),
    changes: t.field({ type: [AuditLogChangeRef], description: 'per field the caller may read', resolve: (e) => e.changes }),
    actor: t.field({ type: AuditLogActorRef, resolve: (e) => e.actor }),
    source: t.exposeString('source', { description: 'REST, GRAPHQL, JOB, …' }),
    requestId: t.exposeString('requestId', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const AuditLogPageRef = builder.objectRef<{ nodes: AuditItem[]; pagination: PaginationShape }>('AuditLogEntryPage').implement({
  fields: (t) => ({
    nodes: t.field({ type: [AuditLogEntryRef], resolve: (p) => p.nodes }),
    pagination: t.field({ type: PaginationRef, resolve: (p) => p.pagination }),
  }),
});

builder.queryFields((t) => ({
  dataRecordAuditLog: t.field({
    type: AuditLogPageRef,
    description: "A record's audit log, newest first (records:read and read permission on its collection; deleted records included).",
    authScopes: tier.standard,
    ...pageById(t.arg, 'dataRecordSimplyId', recordAuditLog),
  }),
}));
