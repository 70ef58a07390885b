// A team's resolver domains (docs/api/action-tags.md "Custom domains"; Document 3 §4.3): added
// PENDING with a random token, proven by a DNS TXT record (the mail domains' bounded lookup), then
// VERIFIED: the domain serves the team's publicUrls. Each verify call also reports the certificate
// https://<domain>/ presents. A paid plan, and at most its domainAllowance domains; the tier
// (TEAM_ADMIN_SVC_TAGS) is the schema's.
import { Prisma, type ActionTagDomain } from '../../generated/prisma/client.ts';
import type { RequestContext } from '../../app/context.ts';
import { NotFoundError } from '../../app/errors.ts';
import { randomSecret } from '../../app/ids.ts';
import { byCreation, pagination, parsePaging, type Page, type PageInput } from '../../app/paging.ts';
import { requireTeam } from '../../app/require-team.ts';
import { runTransaction } from '../../app/transaction.ts';
import { parseInput } from '../../app/validate.ts';
import { advisoryLock } from '../../db/advisory-locks.ts';
import { checkTxtRecord, verificationRecordName, verificationRecordValue } from '../messages/index.ts';
import { requirePaidPlan } from './action-tag-plan.ts';
import { checkCertificate } from './action-tag-domains.certificate.ts';
import { ActionTagDomainExistsError, ActionTagDomainLimitError, ActionTagDomainTakenError } from './action-tag-domains.errors.ts';
import { actionTagHosts } from './action-tag-domains.hosts.ts';
import { actionTagDomainId } from './action-tag-domains.ids.ts';
import { createActionTagDomainInput } from './action-tag-domains.input.ts';

const LABEL = 'Action-tag domain';
const WHAT = 'Action-tag domains';

const isUniqueViolation = (error: unknown) =>
  (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') || (error as { code?: string } | null)?.code === 'CONFLICT';

async function findDomain(ctx: RequestContext, simplyId: string): Promise<ActionTagDomain> {
  const team = requireTeam(ctx);
  await requirePaidPlan(ctx, WHAT);
  actionTagDomainId.assert(simplyId, 'actionTagsDomainSimplyId');
  const row = await ctx.services.prisma.actionTagDomain.findUnique({ where: { teamId_simplyId: { teamId: team.id, simplyId } } });
  if (!row) throw new NotFoundError(LABEL, simplyId);
  return row;
}

/** The TXT record that proves the domain: the same form as a mail domain's. */
export function domainVerificationOf(row: Pick<ActionTagDomain, 'domain' | 'verificationToken'>) {
  return { recordType: 'TXT' as const, recordName: verificationRecordName(row.domain), recordValue: verificationRecordValue(row.verificationToken) };
}

/** The team's domains, oldest first. */
export async function listActionTagDomains(ctx: RequestContext, args: PageInput): Promise<Page<ActionTagDomain>> {
  const team = requireTeam(ctx);
  const paging = parsePaging(args);
  await requirePaidPlan(ctx, WHAT);
  const where = { teamId: team.id };
  const { prisma } = ctx.services;
  const [nodes, total] = await Promise.all([prisma.actionTagDomain.findMany({ where, ...byCreation(paging, 'asc') }), prisma.actionTagDomain.count({ where })]);
  return { nodes, pagination: pagination(total, paging) };
}

export async function getActionTagDomain(ctx: RequestContext, simplyId: string): Promise<ActionTagDomain> {
  return findDomain(ctx, simplyId);
}

export async function createActionTagDomain(ctx: RequestContext, raw: unknown): Promise<ActionTagDomain> {
  const team = requireTeam(ctx);
  const plan = await requirePaidPlan(ctx, WHAT);
  const input = parseInput(createActionTagDomainInput, raw, 'Invalid action-tag domain');
  try {
    return await runTransaction(ctx.services.prisma, async (tx) => {
      // the team's adds take turns, so concurrent ones cannot all pass the allowance
      const lock = advisoryLock('actionTagDomains', String(team.id));
      await tx.$executeRawUnsafe(lock.text, ...lock.values);
      if ((await tx.actionTagDomain.count({ where: { teamId: team.id } })) >= plan.domainAllowance) throw new ActionTagDomainLimitError(plan.domainAllowance);
      return tx.actionTagDomain.create({
        // 24 random bytes: 32 base64url characters, unguessable, and safe inside a TXT record
        data: { simplyId: actionTagDomainId.create(), teamId: team.id, domain: input.domain, verificationToken: randomSecret(24) },
      });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new ActionTagDomainExistsError(input.domain);
    throw error;
  }
}

/**
 * Looks the TXT record and the certificate up now. The record found: VERIFIED (verifiedAt set the
 * first time), unless another team holds the name VERIFIED (409). Not found, wrong, or DNS
 * unreachable: the status stays and lastCheckError says why; the answer is the domain either way.
 * A VERIFIED domain stays verified when a later check fails (its printed codes keep working); the
 * failure is recorded for the team to see.
 */
export async function verifyActionTagDomain(ctx: RequestContext, simplyId: string): Promise<ActionTagDomain> {
  const current = await findDomain(ctx, simplyId);
  const { recordName, recordValue } = domainVerificationOf(current);
  const { config, prisma } = ctx.services;
  const [txt, certificate] = await Promise.all([checkTxtRecord(config, recordName, recordValue), checkCertificate(config, current.domain)]);
  const now = new Date();
  const data: Prisma.ActionTagDomainUpdateManyMutationInput = {
    lastCheckedAt: now,
    lastCheckError: txt.ok ? null : txt.reason,
    certificateStatus: certificate.status,
    certificateExpiresAt: certificate.expiresAt,
    certificateError: certificate.error,
  };
  if (txt.ok && current.status !== 'VERIFIED') Object.assign(data, { status: 'VERIFIED', verifiedAt: now });
  let updated: ActionTagDomain | undefined;
  try {
    [updated] = await prisma.actionTagDomain.updateManyAndReturn({ where: { id: current.id }, data });
  } catch (error) {
    if (isUniqueViolation(error)) throw new ActionTagDomainTakenError(current.domain);
    throw error;
  }
  // removed while the lookup ran
  if (!updated) throw new NotFoundError(LABEL, simplyId);
  if (updated.status !== current.status) await actionTagHosts(ctx.services).refresh();
  return updated;
}

/** Removes the domain; its publicUrls stop resolving on it (on other instances within the refresh window). */
export async function deleteActionTagDomain(ctx: RequestContext, simplyId: string): Promise<boolean> {
  const current = await findDomain(ctx, simplyId);
  const { count } = await ctx.services.prisma.actionTagDomain.deleteMany({ where: { teamId: current.teamId, id: current.id } });
  if (count === 0) throw new NotFoundError(LABEL, simplyId);
  if (current.status === 'VERIFIED') await actionTagHosts(ctx.services).refresh();
  return true;
}
