// Mail in the route-table suites (test/support/area-kit.ts): a mail to the world's record, with its
// entry in the record's communication history, in the route world.
import { inTransaction } from '../../src/app/transaction.ts';
import { recordDelivery } from '../../src/modules/communications/record-delivery.ts';
import { ok, type AreaTestKit } from '../support/area-kit.ts';
import type { TeamFixture } from '../support/fixtures.ts';
import type { TestServer } from '../support/server.ts';

/**
 * A mail to the world's record and its entry in the record's communication history, written
 * together as a sender does (the history follows the mail's state), so history reads are not empty.
 */
async function mailWithHistory(server: TestServer, team: TeamFixture, recordSimplyId: string, destination: string, subject: string): Promise<{ simplyId: string }> {
  const services = server.app.services;
  const record = await services.prisma.dataRecord.findFirstOrThrow({ where: { teamId: team.teamId, simplyId: recordSimplyId }, select: { id: true } });
  const mail = await inTransaction(services.pool, async (db) => {
    const queued = await services.mail.enqueue({ teamId: team.teamId, to: [destination], subject, text: 'body', source: 'SYSTEM' }, db);
    await recordDelivery(db, { teamId: team.teamId, dataRecordId: record.id, sourceType: 'SYSTEM', channelId: 'EMAIL', mailMessageId: queued.id, destination, subject, text: 'body' });
    return queued;
  });
  const history = await ok(await server.request('GET', `/v1/data-records/${recordSimplyId}/communications`, { token: team.apiKey }), "read the record's history");
  if (!Array.isArray(history) || history.length !== 1) throw new Error(`route world: the record's history holds ${JSON.stringify(history)}, not the one delivery`);
  return mail;
}

export const kit: AreaTestKit = {
  async world({ server, team, name, label, ids }) {
    const mail = await mailWithHistory(server, team, ids.dataRecordSimplyId!, `${label}@x.test`, name('Mail'));
    return { ids: { mailSimplyId: mail.simplyId }, names: ['Mail'] };
  },
};
