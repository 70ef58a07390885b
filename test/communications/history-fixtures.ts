// What the communication history tests share: deliveries written through the one writer
// (recordDeliveries, on a pooled connection as a sender would), a record's internal id, and the
// markers seeded into protected columns so a response can be searched for any of them.
import { recordDeliveries, type DeliveryDraft } from '../../src/modules/communications/record-delivery.ts';
import type { TeamFixture } from '../support/fixtures.ts';
import type { TestServer } from '../support/server.ts';

export async function recordIdOf(server: TestServer, team: TeamFixture, simplyId: string): Promise<bigint> {
  const row = await server.app.services.prisma.dataRecord.findFirstOrThrow({ where: { teamId: team.teamId, simplyId }, select: { id: true } });
  return row.id;
}

/** Protected values the list must never show, unique per seeded row. */
export function protectedDraft(teamId: bigint, dataRecordId: bigint, n: string, more: Partial<DeliveryDraft> = {}): DeliveryDraft {
  return {
    teamId,
    dataRecordId,
    sourceType: 'MESSAGE_COMPOSER',
    sourceSimplyId: null,
    channelId: 'EMAIL',
    destination: `dest-${n}@constituent.test`,
    senderAddress: `sender-${n}@team.test`,
    subject: `SUBJECT-MARK-${n}`,
    text: `TEXT-MARK-${n}`,
    html: `<p>HTML-MARK-${n}</p>`,
    attachments: [{ fileSimplyId: `fil-ATT${n}`, versionNumber: 1, filename: `ATTACHMENT-MARK-${n}.pdf`, contentType: 'application/pdf', sizeBytes: 1234 }],
    ...more,
  };
}

/** Writes the drafts in one transaction (one createdAt for all: ties are ordered by id); returns their simplyIds. */
export async function seedDeliveries(server: TestServer, drafts: DeliveryDraft[]): Promise<string[]> {
  const client = await server.app.services.pool.connect();
  try {
    await client.query('BEGIN');
    const ids = await recordDeliveries(client, drafts);
    await client.query('COMMIT');
    return ids;
  } finally {
    client.release();
  }
}

/** Moves deliveries' createdAt to `seconds` ago (one by one: the history is ordered by it). */
export async function backdate(server: TestServer, team: TeamFixture, simplyIds: string[], seconds: (index: number) => number): Promise<void> {
  for (const [i, simplyId] of simplyIds.entries()) {
    await server.app.services.pool.query(
      `UPDATE "ConstituentMessageDelivery" SET "createdAt" = now() - make_interval(secs => $3) WHERE "teamId" = $1 AND "simplyId" = $2`,
      [team.teamId, simplyId, seconds(i)],
    );
  }
}

/** Every key of a JSON value, at any depth, with the values found under it. */
export function walk(value: unknown, visit: (key: string, value: unknown) => void): void {
  if (Array.isArray(value)) for (const item of value) walk(item, visit);
  else if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      visit(key, child);
      walk(child, visit);
    }
  }
}
