// What the outgoing-message tests share: a verified sender (domain and sender written straight to
// the database; verification has its own tests in test/messages/), a collection of people with an
// email field, records created over REST, and the GraphQL operations of the area.
import { operation } from '../../src/app/graphql/fragments.ts';
import { mailDomainId, messageSenderId } from '../../src/modules/messages/messages.ids.ts';
import {
  MESSAGE,
  MESSAGE_SETTINGS,
  MESSAGE_STATUS,
  OUTGOING_MESSAGE,
  OUTGOING_MESSAGE_STATS,
  SEND_READINESS,
  TEST_SEND_RESULT,
} from '../../src/modules/outgoing-messages/outgoing-messages.fragments.ts';
import { type CollectionFixture, createCollection, REQUIRED_TEXT } from '../support/data-fixtures.ts';
import { expectOk } from '../support/expect-envelope.ts';
import { type TeamFixture, unique } from '../support/fixtures.ts';
import { createRecord } from '../support/record-fixtures.ts';
import type { TestServer } from '../support/server.ts';

export const PATH = '/v1/outgoing-messages';
export const MSG_ID = /^msg-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$/;

export interface SenderFixture {
  id: string;
  emailAddress: string;
  domain: string;
}

/** A sender on a VERIFIED domain of the team (the channel's default unless `isDefault` is false). */
export async function addSender(server: TestServer, team: TeamFixture, options: { name?: string; isDefault?: boolean } = {}): Promise<SenderFixture> {
  const { prisma } = server.app.services;
  const domain = `om-${unique()}.example`;
  const row = await prisma.teamMailDomain.create({
    data: { simplyId: mailDomainId.create(), teamId: team.teamId, domain, verificationToken: unique().repeat(4), status: 'VERIFIED', verifiedAt: new Date() },
  });
  const sender = await prisma.messageSender.create({
    data: {
      simplyId: messageSenderId.create(),
      teamId: team.teamId,
      name: options.name ?? 'Riverside Clinic',
      deliveryMethod: 'EMAIL',
      emailAddress: `news@${domain}`,
      domainId: row.id,
      isDefault: options.isDefault ?? true,
    },
  });
  return { id: sender.simplyId, emailAddress: sender.emailAddress!, domain };
}

/** People: first_name (required), email (EMAIL_ADDRESS), city, named "{first_name}". */
export function createPeople(server: TestServer, team: TeamFixture, name = 'People'): Promise<CollectionFixture> {
  return createCollection(server, team, { name, formula: '{first_name}', fields: { first_name: REQUIRED_TEXT, email: 'EMAIL_ADDRESS', city: 'PLAIN_TEXT' } });
}

export interface Person {
  first_name: string;
  email?: string;
  city?: string;
}

/** Creates the people over REST, in order; answers their record simplyIds. */
export async function addPeople(server: TestServer, team: TeamFixture, people: CollectionFixture, persons: readonly Person[]): Promise<string[]> {
  const ids: string[] = [];
  for (const person of persons) {
    const fields = Object.fromEntries(Object.entries(person).map(([column, value]) => [people.fields[column]!, value]));
    ids.push((await createRecord(server, team.apiKey, people.id, fields)).id);
  }
  return ids;
}

/** A valid draft body sending to `people` by their email field. */
export function draftBody(people: CollectionFixture, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    internalName: 'Spring newsletter',
    subjectLine: 'Hello {{first_name}}',
    contentType: 'HTML',
    htmlContent: '<p>Dear {{first_name}} of {{city}},</p><p>spring is here.</p>',
    textContent: 'Dear {{first_name}} of {{city}}, spring is here.',
    recipients: { dataCollectionSimplyId: people.id, emailFieldSimplyId: people.fields.email },
    ...overrides,
  };
}

/** POST /v1/outgoing-messages expecting 201; the message. */
export async function createDraft(server: TestServer, token: string, body: Record<string, unknown>): Promise<any> {
  return expectOk(await server.request('POST', PATH, { token, body }), 201);
}

/** PUT .../status expecting 200; the message. */
export async function move(server: TestServer, token: string, id: string, status: string, extra: Record<string, unknown> = {}, teamId?: string): Promise<any> {
  return expectOk(await server.request('PUT', `${PATH}/${id}/status`, { token, teamId, body: { status, ...extra } }));
}

export const GQL = {
  create: operation(['mutation($input: CreateOutgoingMessageInput!) { createOutgoingMessage(input: $input) { ', ' } }'], OUTGOING_MESSAGE),
  update: operation(['mutation($id: String!, $input: UpdateOutgoingMessageInput!) { updateOutgoingMessage(outgoingMessageSimplyId: $id, input: $input) { ', ' } }'], OUTGOING_MESSAGE),
  setStatus: operation(['mutation($id: String!, $input: SetOutgoingMessageStatusInput!) { setOutgoingMessageStatus(outgoingMessageSimplyId: $id, input: $input) { ', ' } }'], OUTGOING_MESSAGE),
  testSend: operation(['mutation($id: String!, $input: TestSendOutgoingMessageInput!) { testSendOutgoingMessage(outgoingMessageSimplyId: $id, input: $input) { ', ' } }'], TEST_SEND_RESULT),
  one: operation(['query($id: String!) { outgoingMessage(outgoingMessageSimplyId: $id) { ', ' } }'], OUTGOING_MESSAGE),
  message: operation(['query($id: String!) { outgoingMessage(outgoingMessageSimplyId: $id) { ', ' } }'], MESSAGE),
  messages: operation(['query($status: String, $deliveryMethod: String) { outgoingMessages(limit: 100, status: $status, deliveryMethod: $deliveryMethod) { nodes { ', ' } pagination { total } } }'], MESSAGE),
  status: operation(['query($id: String!) { messageStatus(messageSimplyId: $id) { ', ' } }'], MESSAGE_STATUS),
  stats: operation(['query($id: String!) { outgoingMessageStats(outgoingMessageSimplyId: $id) { ', ' } }'], OUTGOING_MESSAGE_STATS),
  readiness: operation(['query($id: String!) { outgoingMessageSendReadiness(outgoingMessageSimplyId: $id) { ', ' } }'], SEND_READINESS),
  sent: 'query { sentOutgoingMessages(limit: 100) { nodes { id status sentAt } pagination { total } } }',
  settings: operation(['query { messageSettings { ', ' } }'], MESSAGE_SETTINGS),
  updateSettings: operation(['mutation($input: MessageSettingsInput!) { updateMessageSettings(input: $input) { ', ' } }'], MESSAGE_SETTINGS),
};
