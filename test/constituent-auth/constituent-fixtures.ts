// Constituent-auth suites run behind TRUST_PROXY (plain HTTP with X-Forwarded-Proto: https), so
// each request can name its client address in X-Forwarded-For: the per-address rate limits are
// shared by every instance on the database, and every test takes addresses of its own.
import { randomInt } from 'node:crypto';
import { fetch } from 'undici';
import type { TestServer } from '../support/server.ts';
import { createCollection, type CollectionFixture } from '../support/data-fixtures.ts';
import type { TeamFixture } from '../support/fixtures.ts';
import { ANONYMOUS } from '../../src/app/auth/principal.ts';
import { systemContext } from '../../src/app/context.ts';
import { initiate } from '../../src/modules/constituent-auth/initiate.service.ts';
import { verify, type ConstituentTokens } from '../../src/modules/constituent-auth/sessions.service.ts';

export interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

export interface CallOptions {
  body?: unknown;
  token?: string;
  /** X-Forwarded-For: the client address the server sees (default: a fresh one) */
  ip?: string;
  headers?: Record<string, string>;
}

/** A random address of 198.18.0.0/15 (benchmarking range): practically never reused within a run. */
export function freshIp(): string {
  return `198.${18 + randomInt(2)}.${randomInt(256)}.${randomInt(1, 255)}`;
}

export function caller(server: () => TestServer) {
  const origin = () => `http://127.0.0.1:${server().app.port}`;
  const call = async (method: string, path: string, o: CallOptions = {}): Promise<Answer> => {
    const headers: Record<string, string> = { 'x-forwarded-proto': 'https', 'x-forwarded-for': o.ip ?? freshIp(), ...o.headers };
    if (o.token) headers.authorization = `Bearer ${o.token}`;
    let body: string | undefined;
    if (o.body !== undefined) {
      body = JSON.stringify(o.body);
      headers['content-type'] = 'application/json';
    }
    const response = await fetch(`${origin()}${path}`, { method, headers, body });
    const text = await response.text();
    return { status: response.status, headers: response.headers as unknown as Headers, body: text ? JSON.parse(text) : null };
  };
  const graphql = async (query: string, variables: Record<string, unknown> = {}, o: Omit<CallOptions, 'body'> = {}) => {
    const answer = await call('POST', '/graphql', { ...o, body: { query, variables } });
    return { status: answer.status, data: answer.body?.data ?? null, errors: answer.body?.errors as { message: string; extensions?: { code?: string } }[] | undefined };
  };
  return { call, graphql };
}

/** A PERSON collection (Contacts: name, email) whose email field constituents sign in with. */
export async function createContacts(server: TestServer, team: TeamFixture, name = 'Contacts'): Promise<CollectionFixture> {
  const contacts = await createCollection(server, team, { name, formula: '{name}', fields: { name: 'PLAIN_TEXT', email: 'EMAIL_ADDRESS', phone: 'PHONE_NUMBER' } });
  await server.app.services.prisma.dataCollection.update({ where: { id: contacts.internalId }, data: { archetype: 'PERSON' } });
  server.app.services.schemas.invalidate(team.teamId);
  return contacts;
}

/** The mail a verification sent (the history and SMTP tests read it elsewhere). */
export async function mailOf(server: TestServer, verificationSimplyId: string) {
  return server.app.services.prisma.mailMessage.findFirst({ where: { source: 'CONSTITUENT_AUTHENTICATION', sourceId: verificationSimplyId } });
}

export function codeIn(text: string): string {
  // the sentence that carries it: a team name may hold six digits of its own
  const code = /\bis (\d{6})\.\s/.exec(text)?.[1];
  if (!code) throw new Error(`no code in ${text}`);
  return code;
}

export function linkTokenIn(text: string): string {
  const token = /[?&]token=([^\s&]+)/.exec(text)?.[1];
  if (!token) throw new Error(`no link in ${text}`);
  return decodeURIComponent(token);
}

/**
 * A constituent with a CODE verification waiting, made through the services in-process from an
 * address of its own (set-ups must not spend the shared loopback address's rate limits).
 */
export async function pendingVerification(server: TestServer, team: TeamFixture, email: string): Promise<{ verificationSimplyId: string; code: string }> {
  const ctx = { ...systemContext(server.app.services, ANONYMOUS, `setup-${freshIp()}`), clientIp: freshIp() };
  const v = await initiate(ctx, { teamSimplyId: team.teamSimplyId, contactValue: email, method: 'CODE' });
  const mail = await mailOf(server, v.verificationSimplyId);
  return { verificationSimplyId: v.verificationSimplyId, code: codeIn(mail!.textBody) };
}

/** A signed-in constituent's tokens, made in-process (see pendingVerification). */
export async function signedInConstituent(server: TestServer, team: TeamFixture, email: string): Promise<ConstituentTokens> {
  const pending = await pendingVerification(server, team, email);
  const ctx = { ...systemContext(server.app.services, ANONYMOUS, `setup-${freshIp()}`), clientIp: freshIp() };
  return verify(ctx, { verificationSimplyId: pending.verificationSimplyId, code: pending.code });
}
