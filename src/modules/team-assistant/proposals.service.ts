// Deciding a proposal (Document 2 §3): DRAFT → APPROVED → EXECUTING → EXECUTED, or REJECTED,
// EXPIRED, FAILED. Approval executes exactly what was drafted, once:
// - one request wins the DRAFT → APPROVED step; a second approve (a double click, a retry) is
//   answered with the proposal as it is then, and never writes;
// - the write carries the records' versions as drafted: a record changed since refuses the whole
//   write (TEAM_AGENT_PROPOSAL_STALE, the proposal ends FAILED) and nothing is written;
// - the proposal becomes EXECUTED in the write's own transaction, and a create is a keyed effect,
//   so an approval whose request died half way never writes twice.
// The member's permissions are checked again now, by the write itself (their role as it is today).
import type pg from 'pg';
import type { RequestContext, Services } from '../../app/context.ts';
import { ApiError } from '../../app/errors.ts';
import type { AssistantProposal } from '../../generated/prisma/client.ts';
import { createRecords, RecordChangedError, updateRecordsById, type WriteOutcome } from '../../kernel/index.ts';
import { requireAssistant } from './team-assistant.access.ts';
import { AssistantProposalClosedError, AssistantProposalNotFoundError, AssistantProposalStaleError } from './team-assistant.errors.ts';
import { assistantProposalId } from './team-assistant.ids.ts';

export interface ProposalView {
  proposalSimplyId: string;
  tool: string;
  arguments: unknown;
  diff: unknown;
  affectedResources: unknown;
  riskLevel: string;
  permissionSummary: string;
  validationSummary: string;
  status: string;
  result: unknown;
  expiresAt: Date;
  decidedAt: Date | null;
  executedAt: Date | null;
  createdAt: Date;
}

export const proposalView = (p: AssistantProposal): ProposalView => ({
  proposalSimplyId: p.simplyId,
  tool: p.tool,
  arguments: p.arguments,
  diff: p.diff,
  affectedResources: p.affected,
  riskLevel: p.riskLevel,
  permissionSummary: p.permissionSummary,
  validationSummary: p.validationSummary,
  status: p.status,
  result: p.result,
  expiresAt: p.expiresAt,
  decidedAt: p.decidedAt,
  executedAt: p.executedAt,
  createdAt: p.createdAt,
});

async function ownProposal(ctx: RequestContext, simplyId: string, level: 'VIEW' | 'EDIT'): Promise<AssistantProposal> {
  const { teamId, userId } = requireAssistant(ctx, level);
  if (!assistantProposalId.is(simplyId)) throw new AssistantProposalNotFoundError();
  const proposal = await ctx.services.prisma.assistantProposal.findUnique({ where: { teamId_simplyId: { teamId, simplyId } } });
  if (!proposal || proposal.userId !== userId) throw new AssistantProposalNotFoundError();
  return proposal;
}

export async function getProposal(ctx: RequestContext, simplyId: string): Promise<ProposalView> {
  return proposalView(await expireIfDue(ctx.services, await ownProposal(ctx, simplyId, 'VIEW')));
}

/** A DRAFT past its expiresAt is EXPIRED as soon as anyone looks (the sweep catches the rest). */
async function expireIfDue(services: Services, p: AssistantProposal): Promise<AssistantProposal> {
  if (p.status !== 'DRAFT' || p.expiresAt > new Date()) return p;
  await services.prisma.assistantProposal.updateMany({ where: { teamId: p.teamId, id: p.id, status: 'DRAFT' }, data: { status: 'EXPIRED' } });
  return services.prisma.assistantProposal.findUniqueOrThrow({ where: { teamId_id: { teamId: p.teamId, id: p.id } } });
}

/** Drafts that nobody decided in time (a job, every minute). */
export async function expireProposals(services: Services): Promise<number> {
  const { count } = await services.prisma.assistantProposal.updateMany({ where: { status: 'DRAFT', expiresAt: { lte: new Date() } }, data: { status: 'EXPIRED' } });
  return count;
}

export async function rejectProposal(ctx: RequestContext, simplyId: string): Promise<ProposalView> {
  const proposal = await expireIfDue(ctx.services, await ownProposal(ctx, simplyId, 'VIEW'));
  const { prisma } = ctx.services;
  await prisma.assistantProposal.updateMany({ where: { teamId: proposal.teamId, id: proposal.id, status: 'DRAFT' }, data: { status: 'REJECTED', decidedAt: new Date() } });
  const now = await prisma.assistantProposal.findUniqueOrThrow({ where: { teamId_id: { teamId: proposal.teamId, id: proposal.id } } });
  if (now.status !== 'REJECTED') throw new AssistantProposalClosedError(now.status);
  return proposalView(now);
}

export async function approveProposal(ctx: RequestContext, simplyId: string): Promise<ProposalView> {
  const proposal = await expireIfDue(ctx.services, await ownProposal(ctx, simplyId, 'EDIT'));
  const { prisma } = ctx.services;
  const where = { teamId: proposal.teamId, id: proposal.id };
  const won = await prisma.assistantProposal.updateMany({ where: { ...where, status: 'DRAFT', expiresAt: { gt: new Date() } }, data: { status: 'APPROVED', decidedAt: new Date() } });
  if (won.count === 0) {
    const now = await expireIfDue(ctx.services, await prisma.assistantProposal.findUniqueOrThrow({ where: { teamId_id: where } }));
    // approved already: the same answer again, nothing written twice
    if (['APPROVED', 'EXECUTING', 'EXECUTED'].includes(now.status)) return proposalView(now);
    throw new AssistantProposalClosedError(now.status);
  }
  await prisma.assistantProposal.updateMany({ where: { ...where, status: 'APPROVED' }, data: { status: 'EXECUTING' } });
  try {
    const outcome = await execute(ctx, proposal);
    if (outcome) await prisma.assistantProposal.updateMany({ where: { ...where, status: 'EXECUTING' }, data: { status: 'EXECUTED', executedAt: new Date(), result: outcome as never } });
  } catch (error) {
    const stale = error instanceof RecordChangedError;
    const code = stale ? 'STALE' : error instanceof ApiError ? error.code : 'INTERNAL_ERROR';
    await prisma.assistantProposal.updateMany({ where: { ...where, status: 'EXECUTING' }, data: { status: 'FAILED', result: { code } } });
    if (stale) throw new AssistantProposalStaleError();
    throw error;
  }
  return proposalView(await prisma.assistantProposal.findUniqueOrThrow({ where: { teamId_id: where } }));
}

interface ExecutionResult {
  succeeded: number;
  failed: number;
  dataRecordSimplyIds: string[];
}

const resultOf = (outcome: WriteOutcome): ExecutionResult => ({
  succeeded: outcome.records.length,
  failed: outcome.items.filter((i) => !i.ok).length,
  dataRecordSimplyIds: outcome.records.map((r) => r.dataRecordSimplyId),
});

/**
 * Runs the drafted write. The proposal turns EXECUTED inside the write's transaction; a repeat
 * (the same proposal executing twice) finds it no longer EXECUTING and rolls its write back.
 * Null: the write committed its own EXECUTED mark.
 */
async function execute(ctx: RequestContext, proposal: AssistantProposal): Promise<ExecutionResult | null> {
  const args = proposal.arguments as { dataCollectionSimplyId?: string; dataRecordSimplyId?: string; dataRecordSimplyIds?: string[]; fields: Record<string, unknown> };
  let result: ExecutionResult | null = null;
  const markExecuted = async (db: pg.PoolClient) => {
    const marked = await db.query(
      `UPDATE "AssistantProposal" SET status = 'EXECUTED', "executedAt" = now(), result = $3::jsonb, "updatedAt" = now() WHERE "teamId" = $1 AND id = $2 AND status = 'EXECUTING'`,
      [proposal.teamId, proposal.id, JSON.stringify(result ?? {})],
    );
    if (marked.rowCount !== 1) throw new AssistantProposalClosedError('EXECUTED');
  };
  const source = 'TEAM_AGENT';
  if (proposal.tool === 'draft_create_data_record') {
    const outcome = await createRecords(ctx, args.dataCollectionSimplyId!, [args.fields], { batch: false, source, effectKey: `team-agent-proposal:${proposal.simplyId}` });
    return resultOf(outcome);
  }
  const versions = new Map(Object.entries(JSON.parse(proposal.fingerprint) as Record<string, string>));
  const ids = proposal.tool === 'draft_update_data_record' ? [args.dataRecordSimplyId!] : args.dataRecordSimplyIds!;
  await updateRecordsById(ctx, ids.map((id) => ({ dataRecordSimplyId: id, fields: args.fields })), {
    batch: proposal.tool === 'draft_bulk_update_data_records',
    source,
    expectUpdatedAt: versions,
    alsoInTransaction: async (db, failures) => {
      result = { succeeded: ids.length - failures.length, failed: failures.length, dataRecordSimplyIds: ids.filter((id) => !failures.some((f) => f.dataRecordSimplyId === id)) };
      await markExecuted(db);
    },
  });
  return null;
}
