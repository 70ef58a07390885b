// Races on message senders and mail domains: one default per channel whatever the order of
// creates, switches and archives; one row per domain name; a domain deleted while a sender is
// being created on it ends with either the sender (delete refused) or the domain gone (the sender
// PENDING, waiting for its confirmation link), never a verified sender on a missing domain; resends
// of a confirmation mail one at a time.
import { randomBytes } from 'node:crypto';
import { unique } from '../concurrency/fresh-resources.ts';
import { expectOneDeletion, expectSame } from '../concurrency/race-checks.ts';
import { N, succeeded, type Exchange, type RaceKit, type RaceTable } from '../concurrency/race-kit.ts';

const PATH = '/v1/message-senders';
const DOMAINS = `${PATH}/domains`;

const domainName = () => `race-${randomBytes(5).toString('hex')}.example`;

/** A domain of the kit's team, VERIFIED in the database (the race server has no DNS server to publish on). */
async function verifiedDomain(kit: RaceKit): Promise<{ id: string; domain: string }> {
  const d = await kit.admin('POST', DOMAINS, { domain: domainName() });
  await kit.server.app.services.prisma.teamMailDomain.updateMany({ where: { simplyId: d.id, teamId: kit.team.teamId }, data: { status: 'VERIFIED', verifiedAt: new Date() } });
  return { id: d.id, domain: d.domain };
}

async function freshSenders(kit: RaceKit, count: number): Promise<string[]> {
  const { domain } = await verifiedDomain(kit);
  const ids: string[] = [];
  for (let i = 0; i < count; i++) ids.push((await kit.admin('POST', PATH, { name: unique('sender'), emailAddress: `s${i}@${domain}` })).id);
  return ids;
}

/** A PENDING sender (its domain unverified) whose confirmation mail is old enough to resend. */
async function pendingSender(kit: RaceKit): Promise<string> {
  const sender = await kit.admin('POST', PATH, { name: unique('pending'), emailAddress: `p@${domainName()}` });
  await kit.server.app.services.prisma.messageSender.updateMany({ where: { simplyId: sender.id, teamId: kit.team.teamId }, data: { verificationSentAt: new Date(Date.now() - 120_000) } });
  return sender.id;
}

const confirmationMails = (kit: RaceKit, senderId: string) => kit.server.app.services.prisma.mailMessage.count({ where: { teamId: kit.team.teamId, source: 'SENDER_VERIFICATION', sourceId: senderId } });

async function expectOneDefault(kit: RaceKit, xs: Exchange[]): Promise<void> {
  const senders: { isDefault: boolean }[] = await kit.admin('GET', `${PATH}?limit=100`);
  const defaults = senders.filter((s) => s.isDefault).length;
  expectSame(kit, 'default EMAIL senders', defaults, senders.length === 0 ? 0 : 1, xs);
}

export const messageSenderRaces: RaceTable = {
  [`POST ${PATH}`]: [
    {
      what: 'N first senders of a team: exactly one becomes the default',
      async run(kit) {
        const { domain } = await verifiedDomain(kit);
        const xs = await kit.race(Array.from({ length: N }, (_, i) => ({ method: 'POST', path: PATH, body: { name: `sender ${i}`, emailAddress: `s${i}@${domain}` } })));
        kit.expectAnswers(xs, ['201']);
        expectSame(kit, 'answers saying isDefault', succeeded(xs).filter((x) => x.response.body.data.isDefault).length, 1, xs);
        await expectOneDefault(kit, xs);
      },
    },
    {
      what: 'N creates asking to be the default',
      async run(kit) {
        const { domain } = await verifiedDomain(kit);
        const xs = await kit.race(Array.from({ length: N }, (_, i) => ({ method: 'POST', path: PATH, body: { name: `sender ${i}`, emailAddress: `s${i}@${domain}`, isDefault: true } })));
        kit.expectAnswers(xs, ['201']);
        await expectOneDefault(kit, xs);
      },
    },
  ],
  [`PUT ${PATH}/{messageSenderSimplyId}`]: [
    {
      what: 'N senders each made the default at once',
      async run(kit) {
        const ids = await freshSenders(kit, N);
        const xs = await kit.race(ids.map((id) => ({ method: 'PUT', path: `${PATH}/${id}`, body: { isDefault: true } })));
        kit.expectAnswers(xs, ['200']);
        await expectOneDefault(kit, xs);
      },
    },
    {
      what: 'default switches racing the archive of the default',
      async run(kit) {
        const ids = await freshSenders(kit, N);
        const xs = await kit.race([{ method: 'DELETE', path: `${PATH}/${ids[0]}` }, ...ids.slice(1).map((id) => ({ method: 'PUT', path: `${PATH}/${id}`, body: { isDefault: true, name: unique('renamed') } }))]);
        kit.expectAnswers(xs, ['200']);
        await expectOneDefault(kit, xs);
      },
    },
  ],
  [`POST ${PATH}/{messageSenderSimplyId}/resend-verification`]: [
    {
      what: 'N resends of one pending sender: one new mail, the others wait for the cooldown',
      async run(kit) {
        const id = await pendingSender(kit);
        const xs = await kit.race({ method: 'POST', path: `${PATH}/${id}/resend-verification` });
        kit.expectAnswers(xs, ['200', '429 RATE_LIMIT_EXCEEDED']);
        expectSame(kit, 'resends that mailed', succeeded(xs).length, 1, xs);
        expectSame(kit, 'confirmation mails (create + one resend)', await confirmationMails(kit, id), 2, xs);
      },
    },
    {
      what: 'resends racing the archive of the sender',
      async run(kit) {
        const id = await pendingSender(kit);
        const xs = await kit.race([{ method: 'DELETE', path: `${PATH}/${id}` }, ...Array.from({ length: N - 1 }, () => ({ method: 'POST', path: `${PATH}/${id}/resend-verification` }))]);
        kit.expectAnswers(xs, ['200', '404 NOT_FOUND', '429 RATE_LIMIT_EXCEEDED']);
        if (xs[0]!.response.status !== 200) kit.problem('the archive did not succeed', [xs[0]!]);
        const mails = await confirmationMails(kit, id);
        if (mails > 2) kit.problem(`${mails} confirmation mails for one sender (at most 2: create + one resend)`, xs);
      },
    },
  ],
  [`DELETE ${PATH}/{messageSenderSimplyId}`]: [
    {
      what: 'N archives of the default sender',
      async run(kit) {
        const ids = await freshSenders(kit, 3);
        const xs = await kit.race({ method: 'DELETE', path: `${PATH}/${ids[0]}` });
        kit.expectAnswers(xs, ['200', '404 NOT_FOUND']);
        await expectOneDeletion(kit, xs, { method: 'DELETE', path: `${PATH}/${ids[0]}` });
        await expectOneDefault(kit, xs);
      },
    },
    {
      what: 'every sender archived at once',
      async run(kit) {
        const ids = await freshSenders(kit, N);
        const xs = await kit.race(ids.map((id) => ({ method: 'DELETE', path: `${PATH}/${id}` })));
        kit.expectAnswers(xs, ['200']);
        expectSame(kit, 'senders left', (await kit.admin('GET', PATH)).length, 0, xs);
      },
    },
  ],
  [`POST ${DOMAINS}`]: [
    {
      what: 'N adds of one domain: one row',
      async run(kit) {
        const domain = domainName();
        const xs = await kit.race({ method: 'POST', path: DOMAINS, body: { domain } });
        kit.expectAnswers(xs, ['201']);
        expectSame(kit, 'successful adds', succeeded(xs).length, 1, xs);
        const rows: { domain: string }[] = await kit.admin('GET', `${DOMAINS}?limit=100`);
        expectSame(kit, 'rows of the domain', rows.filter((d) => d.domain === domain).length, 1, xs);
      },
    },
  ],
  [`POST ${DOMAINS}/{mailDomainSimplyId}/verify`]: [
    {
      what: 'N checks of one domain (no DNS answer: each stays PENDING with the reason)',
      async run(kit) {
        const d = await kit.admin('POST', DOMAINS, { domain: domainName() });
        const xs = await kit.race({ method: 'POST', path: `${DOMAINS}/${d.id}/verify` });
        kit.expectAnswers(xs, ['200']);
        for (const x of succeeded(xs)) if (x.response.body.data.status !== 'PENDING' || !x.response.body.data.lastCheckError) kit.problem('a check answered without PENDING and a reason', [x]);
      },
    },
    {
      what: 'checks racing the delete of the domain',
      async run(kit) {
        const d = await kit.admin('POST', DOMAINS, { domain: domainName() });
        const xs = await kit.race([{ method: 'DELETE', path: `${DOMAINS}/${d.id}` }, ...Array.from({ length: N - 1 }, () => ({ method: 'POST', path: `${DOMAINS}/${d.id}/verify` }))]);
        kit.expectAnswers(xs, ['200', '404 NOT_FOUND']);
        if (xs[0]!.response.status !== 200) kit.problem('the delete did not succeed', [xs[0]!]);
      },
    },
  ],
  [`DELETE ${DOMAINS}/{mailDomainSimplyId}`]: [
    {
      what: 'N deletes of one domain',
      async run(kit) {
        const d = await kit.admin('POST', DOMAINS, { domain: domainName() });
        const xs = await kit.race({ method: 'DELETE', path: `${DOMAINS}/${d.id}` });
        kit.expectAnswers(xs, ['200', '404 NOT_FOUND']);
        await expectOneDeletion(kit, xs, { method: 'DELETE', path: `${DOMAINS}/${d.id}` });
      },
    },
    {
      what: 'a delete racing senders being created on the domain',
      async run(kit) {
        const d = await verifiedDomain(kit);
        const xs = await kit.race([{ method: 'DELETE', path: `${DOMAINS}/${d.id}` }, ...Array.from({ length: N - 1 }, (_, i) => ({ method: 'POST', path: PATH, body: { name: `s${i}`, emailAddress: `s${i}@${d.domain}` } }))]);
        // a sender after the delete finds no verified domain: created PENDING, waiting for its confirmation link
        kit.expectAnswers(xs, ['200', '201']);
        const deleted = xs[0]!.response.status === 200;
        const verified = succeeded(xs.slice(1)).filter((x) => x.response.body.data.verificationStatus === 'VERIFIED').length;
        if (deleted && verified > 0) kit.problem(`the domain was deleted although ${verified} sender(s) were verified by it`, xs);
        if (!deleted && verified === 0) kit.problem('the delete was refused although no sender was verified by the domain', xs);
      },
    },
  ],
};
