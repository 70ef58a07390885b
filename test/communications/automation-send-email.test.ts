// Automations' SEND_EMAIL writes the communication history: a mail to the record's own address is
// one delivery (sourceType AUTOMATION, the automation's simplyId), written with the mail in one
// transaction, masked, and moved to SENT by the mail row's state once the real SMTP sink took it.
// Fixed addresses are not the constituent: no row. A repeated run adds nothing. A record address on
// the team's suppression list is left out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExecution } from '../../src/modules/automations/automation-runner.ts';
import { MASK } from '../../src/modules/communications/masking.ts';
import { automationApi, type AutomationTestServer, startAutomationServer, until } from '../support/automation-fixtures.ts';
import { createCollection, type CollectionFixture } from '../support/data-fixtures.ts';
import { expectOk } from '../support/expect-envelope.ts';
import { createTeam, type TeamFixture } from '../support/fixtures.ts';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts';

let sink: SmtpSink;
let server: AutomationTestServer;
let team: TeamFixture;
let contacts: CollectionFixture;

beforeAll(async () => {
  sink = await startSmtpSink();
  server = await startAutomationServer({ env: { SMTP_URL: sink.url } });
  team = await createTeam(server);
  contacts = await createCollection(server, team, { name: 'Contacts', formula: '{first_name}', fields: { first_name: 'PLAIN_TEXT', email: 'EMAIL_ADDRESS' } });
});
afterAll(async () => {
  await server?.close();
  await sink?.close();
});

const { onRecordCreated, createRecord, finished, disable, call } = automationApi(() => server, () => team.apiKey);
const history = async (record: string) => expectOk(await call('GET', `/v1/data-records/${record}/communications`));
const snapshot = async (record: string) => expectOk(await call('GET', `/v1/data-records/${record}/communications/protected`, undefined, team.userToken, team.teamSimplyId));
const deliveries = (record: string) =>
  server.app.services.pool.query(
    `SELECT d.* FROM "ConstituentMessageDelivery" d JOIN "DataRecord" r ON r.id = d."dataRecordId" AND r."teamId" = d."teamId" WHERE d."teamId" = $1 AND r."simplyId" = $2`,
    [team.teamId, record],
  ).then((r) => r.rows);

describe('SEND_EMAIL and the communication history', () => {
  it('records one delivery for the record’s address, in the mail’s transaction; the trigger moves it to SENT once mailed', async () => {
    const automation = await onRecordCreated(contacts.id, 'Welcome', [
      {
        actionType: 'SEND_EMAIL',
        actionConfig: {
          to: ['ops@team.test'],
          toFieldSimplyId: contacts.fields.email,
          subject: 'Welcome {{first_name}}',
          text: 'Hello {{first_name}}, set your password: https://app.example.test/reset?token=RESET-TOKEN-42',
          html: '<a href="https://app.example.test/reset?id=1&amp;token=RESET-TOKEN-42">set it</a>',
        },
      },
    ]);
    const record = await createRecord(contacts.id, { [contacts.fields.first_name!]: 'Ada', [contacts.fields.email!]: 'ada@constituent.test' });
    const [run] = await finished(automation.id);
    expect(run.status).toBe('SUCCEEDED');

    const mails = await server.app.services.prisma.mailMessage.findMany({ where: { teamId: team.teamId, source: 'AUTOMATION' } });
    expect(mails).toHaveLength(1);
    const rows = await deliveries(record);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ sourceType: 'AUTOMATION', sourceSimplyId: automation.id, channelId: 'EMAIL', mailMessageId: String(mails[0]!.id), destination: 'ada@constituent.test' });

    // the sink takes the mail; the mail row's SENT reaches the history through the trigger
    await until('the mail in the sink', async () => (sink.received.some((m) => m.rcptTo.includes('ada@constituent.test')) ? true : null));
    const [item] = await until('the delivery SENT', async () => {
      const items = await history(record);
      return items[0]?.currentStateId === 'SENT' ? items : null;
    });
    expect(item).toMatchObject({ sourceType: 'AUTOMATION', sourceSimplyId: automation.id, channelId: 'EMAIL', sensitivity: 'SENSITIVE', hasProtectedContent: true, attachmentCount: 0 });

    const [full] = await snapshot(record);
    expect(full).toMatchObject({
      destination: 'ada@constituent.test',
      // the bare address of MAIL_FROM, as composed messages record theirs
      senderAddress: server.app.services.config.MAIL_FROM.replace(/^.*<(.*)>$/, '$1'),
      renderedSubject: 'Welcome Ada',
      renderedText: `Hello Ada, set your password: https://app.example.test/reset?token=${MASK}`,
      renderedHtml: `<a href="https://app.example.test/reset?id=1&amp;token=${MASK}">set it</a>`,
    });
    expect(full.events.map((e: { stateId: string }) => e.stateId)).toEqual(['QUEUED', 'SENT']);

    // a repeated run (the queue retrying after a crash) sends nothing and records nothing more
    await server.app.services.pool.query(`UPDATE "AutomationExecution" SET status = 'RUNNING' WHERE "simplyId" = $1`, [run.id]);
    await runExecution(server.app.services, { teamId: String(team.teamId), executionSimplyId: run.id }, { retryCount: 1 });
    expect(await deliveries(record)).toHaveLength(1);
    await disable(automation.id);
  });

  it('fixed addresses only, or a record without an address: the mail goes out, no history row', async () => {
    const fixed = await onRecordCreated(contacts.id, 'Tell ops', [{ actionType: 'SEND_EMAIL', actionConfig: { to: ['ops@team.test'], subject: 'New contact {{first_name}}', text: 'x' } }]);
    const fallback = await onRecordCreated(contacts.id, 'Mail the contact, else ops', [
      { actionType: 'SEND_EMAIL', actionConfig: { to: ['ops@team.test'], toFieldSimplyId: contacts.fields.email, subject: 'Hi', text: 'y' } },
    ]);
    const record = await createRecord(contacts.id, { [contacts.fields.first_name!]: 'NoMail' });
    const [a] = await finished(fixed.id);
    const [b] = await finished(fallback.id);
    expect([a.status, b.status]).toEqual(['SUCCEEDED', 'SUCCEEDED']);
    const mails = await server.app.services.prisma.mailMessage.findMany({ where: { teamId: team.teamId, source: 'AUTOMATION', sourceId: { contains: record } } });
    expect(mails).toHaveLength(2);
    expect(mails.every((m) => m.toAddresses.join() === 'ops@team.test')).toBe(true);
    expect(await deliveries(record)).toEqual([]);
    expect(await history(record)).toEqual([]);
    await disable(fixed.id, fallback.id);
  });

  it('leaves out a record address on the suppression list: the fixed addresses still get the mail; alone, the action fails RECIPIENT_SUPPRESSED', async () => {
    expectOk(await call('POST', '/v1/message-suppressions', { address: 'Gone@Constituent.test' }), 201);
    const both = await onRecordCreated(contacts.id, 'Contact and ops', [
      { actionType: 'SEND_EMAIL', actionConfig: { to: ['ops@team.test'], toFieldSimplyId: contacts.fields.email, subject: 'Both', text: 'z' } },
    ]);
    const alone = await onRecordCreated(contacts.id, 'Contact only', [{ actionType: 'SEND_EMAIL', actionConfig: { toFieldSimplyId: contacts.fields.email, subject: 'Alone', text: 'z' } }]);
    const record = await createRecord(contacts.id, { [contacts.fields.first_name!]: 'Gone', [contacts.fields.email!]: 'gone@constituent.test' });
    const [a] = await finished(both.id);
    const [b] = await finished(alone.id);
    expect(a.status).toBe('SUCCEEDED');
    expect(b.status).toBe('FAILED');
    expect(b.errorDetails.failures[0]).toMatchObject({ code: 'RECIPIENT_SUPPRESSED', actionType: 'SEND_EMAIL' });
    const mails = await server.app.services.prisma.mailMessage.findMany({ where: { teamId: team.teamId, source: 'AUTOMATION', sourceId: { contains: record } } });
    expect(mails.map((m) => m.toAddresses)).toEqual([['ops@team.test']]);
    expect(await deliveries(record)).toEqual([]);
    await disable(both.id, alone.id);
  });
});
