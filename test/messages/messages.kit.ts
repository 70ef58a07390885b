// Message templates (simple and authored), senders and mail domains in the route-table suites
// (test/support/area-kit.ts): the races of their write routes (message-senders.races.ts,
// message-templates.races.ts, outgoing-message-templates.races.ts), the bodies of their id routes,
// and a template and a sender on a verified domain in the route world.
import { randomBytes } from 'node:crypto';
import { fresh, ok, type AreaTestKit } from '../support/area-kit.ts';
import type { TeamFixture } from '../support/fixtures.ts';
import type { TestServer } from '../support/server.ts';
import { messageSenderRaces } from './message-senders.races.ts';
import { messageTemplateRaces } from './message-templates.races.ts';
import { outgoingMessageTemplateRaces } from './outgoing-message-templates.races.ts';

/**
 * A mail domain and a sender on it. The world has no DNS server to publish the proof on, so the
 * domain is marked VERIFIED in the database (as the verify route would after finding the record);
 * the sender is then created through the API, which checks that.
 */
async function buildMessageSender(server: TestServer, team: TeamFixture, name: (what: string) => string): Promise<{ mailDomain: string; messageSender: string }> {
  const call = (method: string, path: string, body?: unknown) => server.request(method, path, { token: team.apiKey, body });
  const domain = await ok(await call('POST', '/v1/message-senders/domains', { domain: `world-${randomBytes(5).toString('hex')}.example` }), 'add mail domain');
  await server.app.services.prisma.teamMailDomain.updateMany({ where: { teamId: team.teamId, simplyId: domain.id }, data: { status: 'VERIFIED', verifiedAt: new Date() } });
  const sender = await ok(await call('POST', '/v1/message-senders', { name: name('Sender'), emailAddress: `news@${domain.domain}` }), 'create message sender');
  return { mailDomain: domain.id, messageSender: sender.id };
}

export const kit: AreaTestKit = {
  races: { ...messageTemplateRaces, ...outgoingMessageTemplateRaces, ...messageSenderRaces },
  idRouteBodies: {
    'PUT /v1/message-templates/{outgoingMessageTemplateSimplyId}': () => ({ name: fresh('renamed message template') }),
    'PATCH /v1/outgoing-message-templates/{outgoingMessageTemplateSimplyId}': () => ({ name: fresh('renamed authored template'), textContent: 'edited' }),
    'POST /v1/outgoing-message-templates/{outgoingMessageTemplateSimplyId}/duplicate': () => ({ name: fresh('duplicated template') }),
    'POST /v1/outgoing-message-templates/{outgoingMessageTemplateSimplyId}/preview': () => ({ sampleValues: { first_name: 'Ada' } }),
    'PUT /v1/message-senders/{messageSenderSimplyId}': () => ({ name: fresh('renamed sender'), isDefault: true }),
  },
  async world({ server, team, call, name }) {
    // authored with a body, so a leak of its content is recognisable too (the simple routes read the same template)
    const messageTemplate = await ok(
      await call('POST', '/v1/outgoing-message-templates', { name: name('Message template'), subjectLine: 'world subject', textContent: name('Message template') }),
      'create message template',
    );
    const { mailDomain, messageSender } = await buildMessageSender(server, team, name);
    return {
      ids: { outgoingMessageTemplateSimplyId: messageTemplate.id, mailDomainSimplyId: mailDomain, messageSenderSimplyId: messageSender },
      names: ['Message template', 'Sender'],
    };
  },
};
