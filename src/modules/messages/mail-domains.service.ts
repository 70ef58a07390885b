// A team's mail domains: added PENDING with a random token, proven by a DNS TXT record, then
// VERIFIED for good (its addresses are verified senders at once, and its PENDING senders become
// verified). Privileged (OUTGOING_MESSAGES_SEND edit), checked by the schema's tier. docs/api/messages.md "Senders and mail domains".
import { Prisma, type TeamMailDomain } from '../../generated/prisma/client.ts';
import type { RequestContext } from '../../app/context.ts';
import { randomSecret } from '../../app/ids.ts';
import { byCreation, paginationOf, parsePaging, type Page, type PageInput } from '../../app/paging.ts';
import { requireTeam } from '../../app/require-team.ts';
import { NotFoundError } from '../../app/errors.ts';
import { parseInput } from '../../app/validate.ts';
import { runTransaction } from '../../app/transaction.ts';
import { checkTxtRecord } from './domain-verification.ts';
import { createMailDomainInput, verificationRecordName, verificationRecordValue } from './mail-domains.input.ts';
import { MailDomainExistsError, MailDomainInUseError } from './messages.errors.ts';
import { mailDomainId } from './messages.ids.ts';
import { lockTeamSenders } from './message-senders.service.ts';

const LABEL = 'Mail domain';

async function findDomain(ctx: RequestContext, simplyId: string): Promise<TeamMailDomain> {
  const team = requireTeam(ctx);
  mailDomainId.assert(simplyId, 'mailDomainSimplyId');
  const row = await ctx.services.prisma.teamMailDomain.findUnique({ where: { teamId_simplyId: { teamId: team.id, simplyId } } });
  if (!row) throw new NotFoundError(LABEL, simplyId);
  return row;
}

/** What the team publishes to prove the domain: the record's name and its exact value. */
export function verificationOf(row: TeamMailDomain) {
  return { recordType: 'TXT' as const, recordName: verificationRecordName(row.domain), recordValue: verificationRecordValue(row.verificationToken) };
}

/** The team's domains, oldest first (a short list: the order they were added). */
export async function listMailDomains(ctx: RequestContext, args: PageInput): Promise<Page<TeamMailDomain>> {
  const team = requireTeam(ctx);
  const paging = parsePaging(args);
  const where = { teamId: team.id };
  const { prisma } = ctx.services;
  const nodes = await prisma.teamMailDomain.findMany({ where, ...byCreation(paging, 'asc') });
  return { nodes, pagination: await paginationOf(nodes.length, paging, () => prisma.teamMailDomain.count({ where })) };
}

export async function createMailDomain(ctx: RequestContext, raw: unknown): Promise<TeamMailDomain> {
  const team = requireTeam(ctx);
  const input = parseInput(createMailDomainInput, raw, 'Invalid mail domain');
  try {
    return await ctx.services.prisma.teamMailDomain.create({
      // 24 random bytes: 32 base64url characters, unguessable, and safe inside a TXT record
      data: { simplyId: mailDomainId.create(), teamId: team.id, domain: input.domain, verificationToken: randomSecret(24) },
    });
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') throw new MailDomainExistsError(input.domain);
    throw error;
  }
}

/**
 * Looks the TXT record up now. Found: VERIFIED (verifiedAt set the first time). Not found, wrong,
 * or DNS unreachable: the domain keeps its status and lastCheckError says why; the answer is the
 * domain either way (200), since a failed check is an expected outcome, not a bad request. A
 * VERIFIED domain stays verified when a later check fails: the proof was given, and its senders
 * keep working; the failure is still recorded for the team to see.
 */
export async function verifyMailDomain(ctx: RequestContext, simplyId: string): Promise<TeamMailDomain> {
  const current = await findDomain(ctx, simplyId);
  const { recordName, recordValue } = verificationOf(current);
  const result = await checkTxtRecord(ctx.services.config, recordName, recordValue);
  const now = new Date();
  const { prisma } = ctx.services;
  if (result.ok) {
    // under the sender lock, so a sender created meanwhile either sees the domain VERIFIED or is linked here
    await runTransaction(prisma, async (tx) => {
      await lockTeamSenders(tx, current.teamId);
      await tx.teamMailDomain.updateMany({ where: { id: current.id, status: 'PENDING' }, data: { status: 'VERIFIED', verifiedAt: now } });
      // the domain now vouches for the senders still waiting for their confirmation link, which stops working
      await tx.messageSender.updateMany({
        where: { teamId: current.teamId, domainId: null, archivedAt: null, verificationStatus: 'PENDING', emailAddress: { endsWith: `@${current.domain}` } },
        data: { domainId: current.id, verificationStatus: 'VERIFIED', verifiedAt: now, verificationTokenHash: null, verificationExpiresAt: null },
      });
    });
  }
  const [updated] = await prisma.teamMailDomain.updateManyAndReturn({
    where: { id: current.id },
    data: { lastCheckedAt: now, lastCheckError: result.ok ? null : result.reason },
  });
  // deleted while the lookup ran
  if (!updated) throw new NotFoundError(LABEL, simplyId);
  return updated;
}

/**
 * Removes the domain (a hard delete: nothing refers to it but senders). Refused while an active
 * sender uses it; archived senders keep their address but let go of the domain. Taken under the
 * team's sender lock, so a sender being created on it either lands first (and the delete is
 * refused) or finds the domain gone.
 */
export async function deleteMailDomain(ctx: RequestContext, simplyId: string): Promise<boolean> {
  const current = await findDomain(ctx, simplyId);
  return runTransaction(ctx.services.prisma, async (tx) => {
    await lockTeamSenders(tx, current.teamId);
    const active = await tx.messageSender.count({ where: { teamId: current.teamId, domainId: current.id, archivedAt: null } });
    if (active > 0) throw new MailDomainInUseError(simplyId, active);
    await tx.messageSender.updateMany({ where: { teamId: current.teamId, domainId: current.id }, data: { domainId: null } });
    const { count } = await tx.teamMailDomain.deleteMany({ where: { id: current.id } });
    if (count === 0) throw new NotFoundError(LABEL, simplyId);
    return true;
  });
}
