// A page's activity (GET /v1/website-pages/{id}/activity): one row per edit, publish, review event
// and restore, written in the transaction of the change it records.
import type { Tx } from '../../app/transaction.ts';
import type { Prisma } from '../../generated/prisma/client.ts';

export const ACTIVITY_KINDS = ['CREATED', 'EDITED', 'PUBLISHED', 'UNPUBLISHED', 'SUBMITTED_FOR_REVIEW', 'CHANGES_REQUESTED', 'VERSION_SAVED', 'VERSION_RESTORED', 'BACKUP_RESTORED', 'COMMENTED', 'TEMPLATE_APPLIED', 'TEMPLATE_DETACHED'] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

export async function recordActivity(
  tx: Pick<Tx, 'websitePageActivity'>,
  page: { teamId: bigint; id: bigint },
  kind: ActivityKind,
  entry: { userId: bigint | null; summary?: string | null; revision?: number | null; details?: Prisma.InputJsonValue },
): Promise<void> {
  await tx.websitePageActivity.create({
    data: { teamId: page.teamId, pageId: page.id, kind, userId: entry.userId, summary: entry.summary ?? null, revision: entry.revision ?? null, details: entry.details },
  });
}
