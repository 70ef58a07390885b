// The engine through an automation's SEND_EMAIL end to end: the record's missing value and a field
// deleted after the automation was saved render empty (no `{{…}}` reaches the recipient), values are
// HTML-escaped in the html body and left as written in the text body, and a tag naming nothing is
// still refused when the automation is saved.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createCollection } from '../support/data-fixtures.ts';
import { expectOk } from '../support/expect-envelope.ts';
import { createTeam, type TeamFixture } from '../support/fixtures.ts';
import { automationApi, type AutomationTestServer, startAutomationServer } from '../support/automation-fixtures.ts';

let server: AutomationTestServer;
let team: TeamFixture;

beforeAll(async () => {
  server = await startAutomationServer();
  team = await createTeam(server);
});
afterAll(async () => {
  await server?.close();
});

const { call, onRecordCreated, createRecord, finished, disable } = automationApi(() => server, () => team.apiKey);

it('SEND_EMAIL renders missing values and deleted fields as empty and escapes values in HTML', async () => {
  const c = await createCollection(server, team, { name: 'Donors', formula: '{first_name}', fields: { first_name: 'PLAIN_TEXT', nickname: 'PLAIN_TEXT', email: 'EMAIL_ADDRESS', region: 'PLAIN_TEXT' } });

  const refused = await call('POST', '/v1/automations', {
    name: 'Bad tag', triggerType: 'RECORD_CREATED', dataCollectionSimplyId: c.id,
    actions: [{ actionType: 'SEND_EMAIL', actionConfig: { toFieldSimplyId: c.fields.email, subject: 'Hi', text: 'Hi {{nick_name}}' } }],
  });
  expect(refused.status).toBe(400);
  expect(JSON.stringify(refused.body)).toContain('{{nick_name}}');

  const automation = await onRecordCreated(c.id, 'Thank-you mail', [
    {
      actionType: 'SEND_EMAIL',
      actionConfig: {
        toFieldSimplyId: c.fields.email,
        subject: 'Thanks {{first_name}}{{nickname}}',
        text: 'Dear {{first_name}} ("{{nickname}}") from {{region}}',
        html: '<p title="{{first_name}}">Dear {{ first_name }} ("{{nickname}}") from {{region}}</p>',
      },
    },
  ]);
  // the field goes away after the automation was saved
  expectOk(await call('DELETE', `/v1/data-collections/${c.id}/fields/${c.fields.region}`));

  await createRecord(c.id, { [c.fields.first_name!]: '<img src=x onerror="alert(1)"> & Co', [c.fields.email!]: 'donor@example.test' });
  const [run] = await finished(automation.id);
  expect(run.status).toBe('SUCCEEDED');
  const mail = await server.app.services.prisma.mailMessage.findFirstOrThrow({ where: { teamId: team.teamId, source: 'AUTOMATION' } });
  expect(mail).toMatchObject({
    toAddresses: ['donor@example.test'],
    subject: 'Thanks <img src=x onerror="alert(1)"> & Co',
    textBody: 'Dear <img src=x onerror="alert(1)"> & Co ("") from ',
    // the template's own quotes stay; the value's are escaped
    htmlBody: '<p title="&lt;img src=x onerror=&quot;alert(1)&quot;&gt; &amp; Co">Dear &lt;img src=x onerror=&quot;alert(1)&quot;&gt; &amp; Co ("") from </p>',
  });
  expect(`${mail.subject}${mail.textBody}${mail.htmlBody}`).not.toContain('{{');
  await disable(automation.id);
});
