// What the import and bulk-delete suites share: a CSV uploaded as a team file by a member, the
// task's error entries in row order, and the outbox and audit rows a team got since a point.
import { uploadFile } from '../support/file-uploads.ts';
import type { Member } from '../support/background-task-fixtures.ts';
import type { TestServer } from '../support/server.ts';

/** Uploads `text` as a text/csv file through the upload flow; answers its fileSimplyId. */
export async function uploadCsv(server: TestServer, who: Member, text: string, filename = 'import.csv'): Promise<string> {
  const upload = await uploadFile(server, who.token, Buffer.from(text, 'utf8'), { filename, contentType: 'text/csv', teamId: who.teamId });
  if (upload.status !== 'COMPLETED' || !upload.fileSimplyId) throw new Error(`upload of ${filename} ended ${upload.status}: ${JSON.stringify(upload)}`);
  return upload.fileSimplyId as string;
}

/** A task's error entries (all of them, acknowledged or not), oldest first. */
export async function taskErrors(server: TestServer, taskSimplyId: string): Promise<{ errorType: string; errorMessage: string; errorContext: any }[]> {
  const task = await server.app.services.prisma.backgroundTask.findFirstOrThrow({ where: { simplyId: taskSimplyId } });
  return server.app.services.prisma.backgroundTaskError.findMany({
    where: { teamId: task.teamId, taskId: task.id },
    orderBy: { id: 'asc' },
    select: { errorType: true, errorMessage: true, errorContext: true },
  });
}

/** The last outbox event id of the team (0 when none): a point to count from. */
export async function lastEventId(server: TestServer, teamId: bigint): Promise<bigint> {
  const row = await server.app.services.prisma.domainEvent.findFirst({ where: { teamId }, orderBy: { id: 'desc' } });
  return row?.id ?? 0n;
}

/** Outbox events of the team after `since`, counted by type. */
export async function eventCountsSince(server: TestServer, teamId: bigint, since: bigint): Promise<Record<string, number>> {
  const rows = await server.app.services.prisma.domainEvent.groupBy({ by: ['eventType'], where: { teamId, id: { gt: since } }, _count: true });
  return Object.fromEntries(rows.map((r) => [r.eventType, r._count]));
}

/** Audit entries of the team's records by action, written with `source`. */
export async function auditCounts(server: TestServer, teamId: bigint, source: string): Promise<Record<string, number>> {
  const rows = await server.app.services.prisma.auditLogEntry.groupBy({ by: ['action'], where: { teamId, source }, _count: true });
  return Object.fromEntries(rows.map((r) => [r.action, r._count]));
}

/** Live records of a collection (by its simplyId) with their stored values. */
export async function liveRecords(server: TestServer, teamId: bigint, collectionSimplyId: string): Promise<{ simplyId: string; values: any }[]> {
  const collection = await server.app.services.prisma.dataCollection.findFirstOrThrow({ where: { teamId, simplyId: collectionSimplyId } });
  return server.app.services.prisma.dataRecord.findMany({ where: { teamId, collectionId: collection.id, deletedAt: null }, orderBy: { id: 'asc' }, select: { simplyId: true, values: true } });
}
