// Form submissions become conversations (docs/api/conversations.md "Form submissions"): a wizard
// run completed through an external-access link is a FORM message from the person in their record's
// open FORM conversation of that wizard (or a new one, routed and told to the team); its text is the
// answers as plain text (markup stays characters, fields the team hides from a role are left out);
// exactly one message per run however often its event is handed on; and runs of the team itself,
// failed runs and other wizards make no message in that conversation.
import { beforeAll, describe, expect, it } from 'vitest';
import { createCollection, type CollectionFixture } from '../support/data-fixtures.ts';
import { expectOk } from '../support/expect-envelope.ts';
import { createApiKey, createRole } from '../support/fixtures.ts';
import { createRecord } from '../support/record-fixtures.ts';
import type { TestResponse } from '../support/server.ts';
import { untilWith } from '../support/until.ts';
import { useServer } from '../support/use-server.ts';
import { createWizard, updateTask } from '../support/wizard-fixtures.ts';
import { call, FEATURES, keyOf, memberWith, type Caller } from './conversation-fixtures.ts';

const until = untilWith({ timeoutMs: 15_000, everyMs: 50 });

describe('form submissions in conversations', () => {
  // the form is public: its requests take from the budget of callers without a credential; the
  // notification jobs run here (on a database of the suite's own, so no other file's workers take them)
  const { server, teams: [team] } = useServer({ teams: 1, runJobs: true, ownDatabase: 'conversation_forms', env: { RATE_LIMIT_ANONYMOUS_PER_MINUTE: 100_000 } });
  const key = () => keyOf(team);
  let people: CollectionFixture;
  let wizard: string;
  let otherWizard: string;
  let agent: Caller;
  /** a key with RUN everywhere and the wizard feature: it hands out links and runs wizards */
  let maker: Caller;

  beforeAll(async () => {
    people = await createCollection(server, team, {
      name: 'People',
      formula: '{name}',
      fields: {
        name: { dataType: 'PLAIN_TEXT', title: 'Name' },
        email: { dataType: 'EMAIL_ADDRESS', title: 'Email' },
        phone: { dataType: 'PHONE_NUMBER', title: 'Phone' },
        notes: { dataType: 'PLAIN_TEXT', title: 'Notes' },
        income: { dataType: 'NUMBER', title: 'Income' },
      },
    });
    // one role may not read the income: the inbox never shows it
    await createRole(server, team, {
      name: 'No income',
      dataPermissions: [{ dataCollectionSimplyId: people.id, level: 'READ' }],
      fieldPermissions: [{ dataFieldSimplyId: people.fields.income, level: 'NONE' }],
    });
    wizard = (await createWizard(server, team.apiKey, {
      name: { en: 'Update your details', de: 'Ihre Angaben' },
      dataCollectionSimplyId: people.id,
      steps: [
        { title: 'Contact', tasks: [updateTask('How we reach you', people.fields.email!, people.fields.phone!)] },
        { title: 'More', tasks: [updateTask('Anything else', people.fields.notes!, people.fields.income!)] },
      ],
    })).dataWizardSimplyId;
    otherWizard = (await createWizard(server, team.apiKey, {
      name: 'Renew membership',
      dataCollectionSimplyId: people.id,
      steps: [{ title: 'Renew', tasks: [updateTask('Notes', people.fields.notes!)] }],
    })).dataWizardSimplyId;
    agent = await memberWith(server, team, [FEATURES.inbox]);
    const runner = await createRole(server, team, { name: 'Wizard runner', dataFullAccess: 'EDIT', dataPermissions: [{ dataCollectionSimplyId: '*', level: 'RUN' }] });
    maker = { token: (await createApiKey(server, team, { name: 'wizard runner', teamRoleSimplyId: runner, featurePermissions: ['TEAM_ADMIN_DATA_WIZARDS:EDIT'] })).key };
  });

  const formPath = (url: string) => new URL(url).pathname;

  /** a person (fields by column name) */
  async function newPerson(fields: Record<string, unknown> = {}): Promise<string> {
    const byColumn = { name: 'Ada Lovelace', email: 'ada@example.org', ...fields };
    return (await createRecord(server, team.apiKey, people.id, Object.fromEntries(Object.entries(byColumn).map(([column, value]) => [people.fields[column]!, value])))).id;
  }

  async function linkFor(record: string, w = wizard): Promise<string> {
    return expectOk(await call(server, maker, 'POST', `/v1/data-wizards/${w}/external-access-links`, { dataRecordSimplyId: record }), 201).url;
  }

  /** opens the link's form and sends it with `answers` (field simplyId → text) */
  async function submit(url: string, answers: Record<string, string>): Promise<TestResponse> {
    const page = await server.request('GET', formPath(url));
    const formToken = /name="formToken" value="([^"]+)"/.exec(page.text)?.[1] ?? '';
    const body = new URLSearchParams({ formToken, ...Object.fromEntries(Object.entries(answers).map(([id, v]) => [`f.${id}`, v])) });
    return server.request('POST', formPath(url), { rawBody: body.toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  }

  const conversationsOf = async (record: string) => expectOk(await call(server, key(), 'GET', `/v1/data-records/${record}/conversations?limit=100`)) as any[];
  const messagesOf = async (conversation: string) => expectOk(await call(server, key(), 'GET', `/v1/conversations/${conversation}/messages?limit=100`)) as any[];
  /** every event waiting in the outbox handed on (the workers may have done it already) */
  const dispatched = () => server.app.services.outbox.dispatchPending();

  async function formConversations(record: string, count: number, messages: number): Promise<any[]> {
    return until(`${count} FORM conversation(s) with ${messages} message(s) for ${record}`, async () => {
      await dispatched();
      const found = (await conversationsOf(record)).filter((c) => c.channel === 'FORM');
      return found.length === count && found.reduce((n, c) => n + c.messageCount, 0) === messages ? found : null;
    });
  }

  it('turns a submission into a FORM conversation with the person’s answers as text, routed and told to the team', async () => {
    const record = await newPerson({ phone: '+14155552671' });
    const url = await linkFor(record);
    const res = await submit(url, {
      [people.fields.email!]: 'ada.new@example.org',
      [people.fields.phone!]: '',
      [people.fields.notes!]: '<script>alert(1)</script>\nSecond line',
      [people.fields.income!]: '120000',
    });
    expect(res.status).toBe(200);

    const [conversation] = await formConversations(record, 1, 1);
    expect(conversation).toMatchObject({
      channel: 'FORM',
      status: 'OPEN',
      assignedUserId: null,
      subject: 'Update your details',
      visitorName: 'Ada Lovelace',
      // the record's address as the run left it: an agent can answer by mail
      visitorEmail: 'ada.new@example.org',
      visitorPhone: null,
      dataRecordSimplyId: record,
      recordLinkSource: 'GIVEN',
      widgetSimplyId: null,
      lastMessageAuthorType: 'END_USER',
    });
    const [message] = await messagesOf(conversation.id);
    expect(message).toMatchObject({ channel: 'FORM', authorType: 'END_USER', authorUserId: null, contentType: 'TEXT', deliveryStatus: null });
    expect(message.content).toBe(
      [
        'Submitted through the form "Update your details":',
        '',
        'Email: ada.new@example.org',
        'Phone: (cleared)',
        'Notes:',
        '  <script>alert(1)</script>',
        '  Second line',
        '',
        '1 answer is not shown: the team hides its field from some roles. Read it on the record.',
      ].join('\n'),
    );
    expect(message.content).not.toContain('120000');

    // it waits for routing and tells the people whose inbox shows it, like any new conversation
    const { rows } = await server.app.services.pool.query(
      `SELECT count(*)::int AS n FROM "ConversationRouting" r JOIN "Conversation" c ON c.id = r."conversationId" WHERE c."simplyId" = $1`,
      [conversation.id],
    );
    expect(rows[0].n).toBe(1);
    const told = await until('the new-conversation notification', async () => {
      const feed = expectOk(await call(server, agent, 'GET', '/v1/notifications?notificationType=NEW_CONVERSATION&limit=100')).notifications as any[];
      return feed.find((n) => n.referenceEntityId === conversation.id) ?? null;
    });
    expect(told).toMatchObject({ title: 'New conversation: Update your details', actionUrl: `/conversations/inbox/${conversation.id}` });
    const inbox = expectOk(await call(server, agent, 'GET', '/v1/conversations/inbox?channel=FORM&limit=100')) as any[];
    expect(inbox.map((c) => c.id)).toContain(conversation.id);
  });

  it('threads the next submission of the same wizard into the open conversation, and starts a new one once it is resolved', async () => {
    const record = await newPerson();
    const url = await linkFor(record);
    expect((await submit(url, { [people.fields.notes!]: 'first' })).status).toBe(200);
    const [first] = await formConversations(record, 1, 1);
    expect((await submit(url, { [people.fields.notes!]: 'second' })).status).toBe(200);
    const [same] = await formConversations(record, 1, 2);
    expect(same.id).toBe(first.id);
    expect((await messagesOf(first.id)).map((m) => m.content.split('\n').at(-1))).toEqual(['Notes: first', 'Notes: second']);

    expectOk(await call(server, key(), 'PUT', `/v1/conversations/${first.id}`, { status: 'RESOLVED' }));
    expect((await submit(url, { [people.fields.notes!]: 'third' })).status).toBe(200);
    const both = await formConversations(record, 2, 3);
    const fresh = both.find((c) => c.id !== first.id)!;
    expect(fresh).toMatchObject({ status: 'OPEN', messageCount: 1 });
    expect(expectOk(await call(server, key(), 'GET', `/v1/conversations/${first.id}`))).toMatchObject({ status: 'RESOLVED', messageCount: 2 });
  });

  it('follows a merge: the next submission goes to the conversation the form conversation was merged into', async () => {
    const record = await newPerson();
    const url = await linkFor(record);
    expect((await submit(url, { [people.fields.notes!]: 'before the merge' })).status).toBe(200);
    const [form] = await formConversations(record, 1, 1);
    const mail = expectOk(await call(server, key(), 'POST', '/v1/conversations', { subject: 'By mail', dataRecordSimplyId: record, channel: 'EMAIL' }), 201);
    expectOk(await call(server, key(), 'POST', `/v1/conversations/inbox/${form.id}/merge`, { into: mail.id }));
    expect((await submit(url, { [people.fields.notes!]: 'after the merge' })).status).toBe(200);
    await until('the message in the merged thread', async () => {
      await dispatched();
      return expectOk(await call(server, key(), 'GET', `/v1/conversations/${mail.id}`)).messageCount === 2;
    });
    const thread = await messagesOf(mail.id);
    expect(thread.map((m) => [m.channel, m.conversationSimplyId])).toEqual([
      ['FORM', form.id],
      ['FORM', mail.id],
    ]);
  });

  it('writes one message per run however often the completion event is handed on', async () => {
    const record = await newPerson();
    const url = await linkFor(record);
    expect((await submit(url, { [people.fields.notes!]: 'once' })).status).toBe(200);
    const [conversation] = await formConversations(record, 1, 1);
    // the run's event handed on again, twice: the claim of the first hand-over stands
    const [run] = expectOk(await call(server, maker, 'GET', `/v1/data-wizards/${wizard}/instances?dataRecordSimplyId=${record}`)) as any[];
    const eventId = `wizard:${run.id}:completion:v1`;
    for (let i = 0; i < 2; i++) {
      const { rowCount } = await server.app.services.pool.query(`UPDATE "DomainEvent" SET "dispatchedAt" = NULL WHERE "eventId" = $1`, [eventId]);
      expect(rowCount).toBe(1);
      await dispatched();
      // handed on (by this dispatch, or a worker's that took it first)
      await until('the event handed on again', async () => (await server.app.services.pool.query(`SELECT 1 FROM "DomainEvent" WHERE "eventId" = $1 AND "dispatchedAt" IS NOT NULL`, [eventId])).rowCount === 1);
    }
    expect((await conversationsOf(record)).filter((c) => c.channel === 'FORM')).toHaveLength(1);
    expect(await messagesOf(conversation.id)).toHaveLength(1);
    const { rows } = await server.app.services.pool.query(`SELECT count(*)::int AS n FROM "ConversationFormSubmission" WHERE "dataWizardInstanceSimplyId" = $1`, [run.id]);
    expect(rows[0].n).toBe(1);
  });

  it('keeps other wizards apart and makes no message of the team’s own runs or of failed submissions', async () => {
    const record = await newPerson();
    // the team's own run over the API: data entry, not a message
    expect(expectOk(await call(server, maker, 'POST', `/v1/data-wizards/${wizard}/execute`, { dataRecordSimplyId: record, formData: { [people.fields.notes!]: 'typed by staff' } })).success).toBe(true);
    // a submission that fails (not an address): the person sees the form again, nothing is said
    expect((await submit(await linkFor(record), { [people.fields.email!]: 'not an address' })).status).toBe(422);
    // another wizard's submission: a conversation of its own
    expect((await submit(await linkFor(record, otherWizard), { [people.fields.notes!]: 'renewal' })).status).toBe(200);
    const [renewal] = await formConversations(record, 1, 1);
    expect(renewal.subject).toBe('Renew membership');
    expect((await messagesOf(renewal.id))[0].content).toBe('Submitted through the form "Renew membership":\n\nNotes: renewal');
    // and the first wizard's next submission does not join it
    expect((await submit(await linkFor(record), { [people.fields.notes!]: 'details' })).status).toBe(200);
    const two = await formConversations(record, 2, 2);
    expect(new Set(two.map((c) => c.subject))).toEqual(new Set(['Renew membership', 'Update your details']));
  });
});
