// Outgoing messages in the route-table suites (test/support/area-kit.ts): the races of their write
// routes, the bodies of their id routes, and a draft message in the route world.
//
// Races on composed messages: creates, whole edits of a draft, edits racing the send (an edit lands
// before the move or is refused, never into a message already sending), concurrent sends of one
// draft (exactly one move lands and every recipient is mailed exactly once), test sends (one mail
// each, the message untouched), and the team's messaging settings.
import { randomBytes } from 'node:crypto';
import { untilWith } from '../support/until.ts';
import { readAll, unique } from '../concurrency/fresh-resources.ts';
import { expectOneOf, expectSame } from '../concurrency/race-checks.ts';
import { N, succeeded, type Exchange, type RaceKit, type RaceTable } from '../concurrency/race-kit.ts';
import { fresh, ok, type AreaTestKit } from '../support/area-kit.ts';

const PATH = '/v1/outgoing-messages';
const one = (id: string) => `${PATH}/${id}`;
/** recipients of a sent race message: few, so a send is one batch */
const RECIPIENTS = 5;
const until = untilWith({ timeoutMs: 30_000, everyMs: 100 });

interface Audience {
  collection: string;
  emailField: string;
  addresses: string[];
}

/**
 * What a message needs to be sent: a default sender on a domain marked VERIFIED in the database
 * (the race server has no DNS server to publish the proof on), and a collection of people with
 * addresses.
 */
async function readyAudience(kit: RaceKit, count = RECIPIENTS): Promise<Audience> {
  const domain = await kit.admin('POST', '/v1/message-senders/domains', { domain: `race-${randomBytes(5).toString('hex')}.example` });
  await kit.server.app.services.prisma.teamMailDomain.updateMany({ where: { simplyId: domain.id, teamId: kit.team.teamId }, data: { status: 'VERIFIED', verifiedAt: new Date() } });
  await kit.admin('POST', '/v1/message-senders', { name: unique('sender'), emailAddress: `news@${domain.domain}`, isDefault: true });
  const people = await kit.admin('POST', '/v1/data-collections', {
    name: unique('people'),
    fields: [
      { title: 'first name', dataType: 'PLAIN_TEXT', columnName: 'first_name' },
      { title: 'email', dataType: 'EMAIL_ADDRESS', columnName: 'email' },
    ],
  });
  const [nameField, emailField] = people.fields.map((f: { id: string }) => f.id);
  const tag = randomBytes(3).toString('hex');
  const addresses = Array.from({ length: count }, (_, i) => `p${i}-${tag}@example.test`);
  await kit.admin('POST', '/v1/data-records/batch', {
    dataCollectionSimplyId: people.id,
    records: addresses.map((address, i) => ({ fields: { [nameField]: `Person ${i}`, [emailField]: address } })),
  });
  return { collection: people.id, emailField, addresses };
}

/** a draft that is ready to send to `audience` (or, without one, a draft with no recipients) */
async function freshDraft(kit: RaceKit, audience?: Audience, overrides: Record<string, unknown> = {}): Promise<{ id: string; internalName: string }> {
  const internalName = unique('message');
  const created = await kit.admin('POST', PATH, {
    internalName,
    subjectLine: 'Hello {{first_name}}',
    htmlContent: '<p>Dear {{first_name}}</p>',
    textContent: 'Dear {{first_name}}',
    ...(audience ? { recipients: { dataCollectionSimplyId: audience.collection, emailFieldSimplyId: audience.emailField } } : {}),
    ...overrides,
  });
  return { id: created.id, internalName };
}

const internalId = async (kit: RaceKit, simplyId: string) =>
  (await kit.server.app.services.prisma.outgoingMessage.findFirstOrThrow({ where: { teamId: kit.team.teamId, simplyId }, select: { id: true } })).id;

/** waits for the platform to finish the send; the final status */
async function sendFinished(kit: RaceKit, id: string): Promise<string> {
  return until(`message ${id} to finish sending`, async () => {
    const status: string = (await kit.admin('GET', one(id))).status;
    return status === 'SENT' || status === 'ERROR_SENDING' ? status : null;
  });
}

/**
 * A sent message must have one recipient row per address, each with its own mail, one mail per
 * address in the mail log and one history entry per recipient: nobody lost, nobody mailed twice.
 */
async function expectEachMailedOnce(kit: RaceKit, id: string, audience: Audience, xs: Exchange[]): Promise<{ subject: string }[]> {
  const { prisma } = kit.server.app.services;
  const outgoingMessageId = await internalId(kit, id);
  const recipients = await prisma.outgoingMessageRecipient.findMany({ where: { teamId: kit.team.teamId, outgoingMessageId }, select: { address: true, mailMessageId: true, state: true } });
  const mails = await prisma.mailMessage.findMany({
    where: { teamId: kit.team.teamId, source: 'MESSAGE_COMPOSER', sourceId: { startsWith: `${id}/` } },
    select: { id: true, toAddresses: true, subject: true },
  });
  const history = await prisma.constituentMessageDelivery.count({ where: { teamId: kit.team.teamId, outgoingMessageId } });
  expectSame(kit, 'recipient addresses', recipients.map((r) => r.address).sort(), [...audience.addresses].sort(), xs);
  expectSame(kit, 'mails per address', mails.flatMap((m) => m.toAddresses).sort(), [...audience.addresses].sort(), xs);
  expectSame(kit, 'recipients without their own mail', recipients.filter((r) => r.mailMessageId === null).map((r) => `${r.address} ${r.state}`), [], xs);
  expectSame(kit, 'distinct mails of the recipients', new Set(recipients.map((r) => String(r.mailMessageId))).size, recipients.length, xs);
  expectSame(kit, 'history entries of the message', history, audience.addresses.length, xs);
  return mails;
}

const outgoingMessageRaces: RaceTable = {
  [`POST ${PATH}`]: [
    {
      what: 'N identical drafts (names need not be unique)',
      async run(kit) {
        const internalName = unique('message');
        const xs = await kit.race({ method: 'POST', path: PATH, body: { internalName, subjectLine: 'race', htmlContent: '<p>race</p>' } });
        kit.expectAnswers(xs, ['201']);
        const ids = succeeded(xs).map((x) => x.response.body.data.id);
        expectSame(kit, 'distinct ids of the created messages', new Set(ids).size, ids.length, xs);
        const listed = (await readAll(kit, PATH)).filter((m) => m.internalName === internalName);
        expectSame(kit, 'messages with the name', listed.length, ids.length, xs);
        expectSame(kit, 'their statuses', [...new Set(listed.map((m) => m.status))], ['DRAFT'], xs);
      },
    },
  ],
  [`PUT ${PATH}/{outgoingMessageSimplyId}`]: [
    {
      what: 'N different names and subjects on one draft',
      async run(kit) {
        const { id } = await freshDraft(kit);
        const bodies = Array.from({ length: N }, (_, i) => ({ internalName: `name ${i}`, subjectLine: `subject ${i}` }));
        const xs = await kit.race(bodies.map((body) => ({ method: 'PUT', path: one(id), body })));
        kit.expectAnswers(xs, ['200']);
        // each answer is the message as its own edit left it
        for (const [i, x] of xs.entries()) {
          const data = x.response.body?.data;
          if (x.response.status === 200 && (data?.internalName !== bodies[i]!.internalName || data?.subjectLine !== bodies[i]!.subjectLine)) {
            kit.problem(`an edit answered with ${JSON.stringify([data?.internalName, data?.subjectLine])}, not its own`, [x]);
          }
        }
        const m = await kit.admin('GET', one(id));
        expectOneOf(kit, 'the message', { internalName: m.internalName, subjectLine: m.subjectLine }, bodies, xs);
      },
    },
    {
      what: 'N-1 subject edits racing the send: none lands after the move, every copy has the final subject',
      async run(kit) {
        const audience = await readyAudience(kit);
        const { id } = await freshDraft(kit, audience, { subjectLine: 'original' });
        const subjects = Array.from({ length: N - 1 }, (_, i) => `edited ${i}`);
        const xs = await kit.race([...subjects.map((subjectLine) => ({ method: 'PUT', path: one(id), body: { subjectLine } })), { method: 'PUT', path: `${one(id)}/status`, body: { status: 'SENDING' } }]);
        kit.expectAnswers(xs.slice(0, N - 1), ['200', '409 MESSAGE_NOT_EDITABLE']);
        kit.expectAnswers(xs.slice(N - 1), ['200']);
        if (xs[N - 1]!.response.status !== 200) return kit.problem('the send did not land', xs);
        expectSame(kit, 'the final status', await sendFinished(kit, id), 'SENT', xs);
        const m = await kit.admin('GET', one(id));
        const landed = ['original', ...subjects.filter((_, i) => xs[i]!.response.status === 200)];
        if (!landed.includes(m.subjectLine)) kit.problem(`the message's subject is ${JSON.stringify(m.subjectLine)}: neither the original nor an edit that answered 200`, xs);
        const mails = await expectEachMailedOnce(kit, id, audience, xs);
        const sent = [...new Set(mails.map((mail) => mail.subject))];
        expectSame(kit, 'the subjects mailed', sent, [m.subjectLine], xs);
      },
    },
  ],
  [`PUT ${PATH}/{outgoingMessageSimplyId}/status`]: [
    {
      what: 'N sends of one ready draft: one move lands, each recipient is mailed once',
      async run(kit) {
        const audience = await readyAudience(kit);
        const { id } = await freshDraft(kit, audience);
        const xs = await kit.race({ method: 'PUT', path: `${one(id)}/status`, body: { status: 'SENDING' } });
        kit.expectAnswers(xs, ['200', '409 INVALID_STATUS_TRANSITION']);
        expectSame(kit, 'moves that landed', succeeded(xs).length, 1, xs);
        for (const x of xs.filter((x) => x.response.body?.error?.code === 'INVALID_STATUS_TRANSITION')) {
          const detail = x.response.body.error.details?.[0];
          if (detail?.from === 'DRAFT') kit.problem('a refused move says the message is still a DRAFT', [x]);
        }
        expectSame(kit, 'the final status', await sendFinished(kit, id), 'SENT', xs);
        await expectEachMailedOnce(kit, id, audience, xs);
      },
    },
    {
      what: 'N schedules racing a move back to DRAFT: the message ends in one of the requested states',
      async run(kit) {
        const { id } = await freshDraft(kit, await readyAudience(kit));
        const at = (i: number) => new Date(Date.now() + (3600 + i) * 1000).toISOString();
        const requests = [
          ...Array.from({ length: N - 1 }, (_, i) => ({ method: 'PUT', path: `${one(id)}/status`, body: { status: 'SCHEDULED', scheduledAt: at(i) } })),
          { method: 'PUT', path: `${one(id)}/status`, body: { status: 'DRAFT' } },
        ];
        const xs = await kit.race(requests);
        // DRAFT → DRAFT is not a move; SCHEDULED → SCHEDULED reschedules
        kit.expectAnswers(xs, ['200', '409 INVALID_STATUS_TRANSITION']);
        const m = await kit.admin('GET', one(id));
        const landed = succeeded(xs).map((x) => x.response.body.data.status);
        if (!landed.includes(m.status)) kit.problem(`the message is ${m.status}, which no move that answered 200 left it in`, xs);
        if (m.status === 'SCHEDULED') {
          const times = succeeded(xs).filter((x) => (x.sent.body as { status: string }).status === 'SCHEDULED').map((x) => Date.parse((x.sent.body as { scheduledAt: string }).scheduledAt));
          if (!times.includes(Date.parse(m.scheduledAt))) kit.problem(`scheduled at ${m.scheduledAt}, a time no successful move asked for`, xs);
        }
        // nothing was sent: a schedule an hour away
        expectSame(kit, 'recipient rows', await kit.server.app.services.prisma.outgoingMessageRecipient.count({ where: { teamId: kit.team.teamId, outgoingMessageId: await internalId(kit, id) } }), 0, xs);
      },
    },
  ],
  [`POST ${PATH}/{outgoingMessageSimplyId}/test-send`]: [
    {
      what: 'N test sends of one draft: one mail each, the message untouched',
      async run(kit) {
        const audience = await readyAudience(kit, 1);
        const { id } = await freshDraft(kit, audience);
        const before = await kit.admin('GET', one(id));
        const xs = await kit.race(Array.from({ length: N }, (_, i) => ({ method: 'POST', path: `${one(id)}/test-send`, body: { to: [`qa${i}@example.test`] } })));
        kit.expectAnswers(xs, ['200']);
        const mailIds = succeeded(xs).flatMap((x) => x.response.body.data.mailSimplyIds as string[]);
        expectSame(kit, 'distinct test mails answered', new Set(mailIds).size, succeeded(xs).length, xs);
        const { prisma } = kit.server.app.services;
        const mails = await prisma.mailMessage.findMany({ where: { teamId: kit.team.teamId, source: 'MESSAGE_COMPOSER_TEST', sourceId: id }, select: { simplyId: true, subject: true } });
        expectSame(kit, 'test mails in the log', mails.map((m) => m.simplyId).sort(), [...mailIds].sort(), xs);
        if (mails.some((m) => !m.subject.startsWith('[TEST] '))) kit.problem('a test mail without the [TEST] subject prefix', xs);
        const after = await kit.admin('GET', one(id));
        expectSame(kit, 'the message after the test sends', { status: after.status, updatedAt: after.updatedAt }, { status: before.status, updatedAt: before.updatedAt }, xs);
        expectSame(kit, 'recipient rows', await prisma.outgoingMessageRecipient.count({ where: { teamId: kit.team.teamId, outgoingMessageId: await internalId(kit, id) } }), 0, xs);
      },
    },
  ],
  ['PUT /v1/message-settings']: [
    {
      what: 'N settings writes, on and off',
      async run(kit) {
        const bodies = Array.from({ length: N }, (_, i) => ({ approvalRequired: i % 2 === 0 }));
        const xs = await kit.race(bodies.map((body) => ({ method: 'PUT', path: '/v1/message-settings', body })));
        kit.expectAnswers(xs, ['200']);
        for (const [i, x] of xs.entries()) {
          if (x.response.status === 200 && x.response.body.data.approvalRequired !== bodies[i]!.approvalRequired) kit.problem('a write answered with another value than its own', [x]);
        }
        const settings = await kit.admin('GET', '/v1/message-settings');
        expectOneOf(kit, 'the settings', { approvalRequired: settings.approvalRequired }, bodies, xs);
      },
    },
    {
      what: 'approval switched on racing sends of drafts: a send either lands or is refused for approval',
      async run(kit) {
        const audience = await readyAudience(kit, 1);
        const drafts = await Promise.all(Array.from({ length: N - 1 }, () => freshDraft(kit, audience)));
        const xs = await kit.race([{ method: 'PUT', path: '/v1/message-settings', body: { approvalRequired: true } }, ...drafts.map(({ id }) => ({ method: 'PUT', path: `${one(id)}/status`, body: { status: 'SENDING' } }))]);
        // a send that found approval off on its first look and on by its readiness check is refused with that one blocker
        kit.expectAnswers(xs, ['200', '409 APPROVAL_REQUIRED', '409 NOT_READY_TO_SEND']);
        for (const x of xs.filter((x) => x.response.body?.error?.code === 'NOT_READY_TO_SEND')) {
          const blockers = (x.response.body.error.details ?? []).map((d: { code: string }) => d.code);
          if (JSON.stringify(blockers) !== '["APPROVAL_REQUIRED"]') kit.problem(`a send refused with blockers ${JSON.stringify(blockers)}, not only APPROVAL_REQUIRED`, [x]);
        }
        if (xs[0]!.response.status !== 200) kit.problem('the settings write did not land', xs);
        for (const [i, { id }] of drafts.entries()) {
          const status: string = (await kit.admin('GET', one(id))).status;
          const landed = xs[i + 1]!.response.status === 200;
          if (landed && status === 'DRAFT') kit.problem(`message ${id}: its send answered 200 but it is still a DRAFT`, [xs[i + 1]!]);
          if (!landed && status !== 'DRAFT') kit.problem(`message ${id}: its send was refused but it is ${status}`, [xs[i + 1]!]);
        }
        // the sends that landed finish before the team is left
        for (const [i, { id }] of drafts.entries()) if (xs[i + 1]!.response.status === 200) await sendFinished(kit, id);
      },
    },
  ],
};

export const kit: AreaTestKit = {
  races: outgoingMessageRaces,
  idRouteBodies: {
    'PUT /v1/outgoing-messages/{outgoingMessageSimplyId}': () => ({ internalName: fresh('renamed outgoing message') }),
    // the caller's own message may not make this move (its team does not require approval: 409); the lookup comes first
    'PUT /v1/outgoing-messages/{outgoingMessageSimplyId}/status': () => ({ status: 'AWAITING_APPROVAL' }),
    'POST /v1/outgoing-messages/{outgoingMessageSimplyId}/test-send': () => ({ to: ['world@example.test'] }),
  },
  async world({ call, name, ids }) {
    const outgoingMessage = await ok(
      await call('POST', '/v1/outgoing-messages', {
        internalName: name('Outgoing message'),
        subjectLine: 'world',
        htmlContent: '<p>x</p>',
        recipients: { dataCollectionSimplyId: ids.dataCollectionSimplyId },
      }),
      'create outgoing message',
    );
    return { ids: { outgoingMessageSimplyId: outgoingMessage.id, messageSimplyId: outgoingMessage.id }, names: ['Outgoing message'] };
  },
};
