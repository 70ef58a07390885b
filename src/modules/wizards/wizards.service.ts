// Data wizards (Document 1 §2.6, §4.5): list, detail and schema, run access, execute.
// Who may do what (docs/api/data-wizards.md):
// - list: TEAM_ADMIN_DATA_WIZARDS (view) — checked by the field's auth scope;
// - detail and schema: TEAM_ADMIN_DATA_WIZARDS (view) or RUN on the wizard's collection;
// - run-access: signed-in users (scope), with RUN on the wizard's collection;
// - execute: RUN on the wizard's collection; session tokens refused; OAuth tokens need wizards:run.
// Team and system admins pass every feature and data check. Scoped tokens reading configuration
// need schema:read (wizards are schema). Another team's wizard is a 404.
import { hasDataAccess, hasFeature, hasScope, type Principal } from '../../app/auth/principal.ts';
import type { RequestContext } from '../../app/context.ts';
import { parsePaging, type PageInput, type PaginationShape, paginationOf, byCreation } from '../../app/paging.ts';
import { requireTeam } from '../../app/require-team.ts';
import { requireSchemaRead } from '../team-schema/index.ts';
import { PermissionDeniedError } from '../../app/errors.ts';
import { dataWizardId, dataWizardStepId, dataWizardStepTaskId } from './wizards.ids.ts';
import { WizardNotFoundError, WizardStepNotFoundError, WizardTaskNotFoundError } from './wizards.errors.ts';
import { firstStep, loadWizardConfig, toWizardConfig, WIZARD_INCLUDE, type WizardConfig, type WizardStep, type WizardTask } from './wizard-config.ts';
import { runWizard, type RunWizardResult } from './wizard-runner.ts';

export const WIZARD_ADMIN_FEATURE = 'TEAM_ADMIN_DATA_WIZARDS';

export interface WizardPage {
  nodes: WizardConfig[];
  pagination: PaginationShape;
}

function canRun(p: Principal, config: WizardConfig): boolean {
  return config.collection !== null && hasDataAccess(p, config.collection.simplyId, 'RUN');
}

function requireRun(p: Principal, config: WizardConfig): void {
  if (!canRun(p, config)) {
    throw new PermissionDeniedError(
      `The credential's team role lacks the RUN data permission on collection ${config.collection?.simplyId ?? '(none)'}, so it cannot run data wizard ${config.row.simplyId}`,
    );
  }
}

/** The wizard in the caller's team, or 404. */
async function findWizard(ctx: RequestContext, simplyId: string): Promise<WizardConfig> {
  const team = requireTeam(ctx);
  dataWizardId.assert(simplyId, 'dataWizardSimplyId');
  const schema = await ctx.services.schemas.get(team.id);
  const config = await loadWizardConfig(ctx.services.prisma, schema, simplyId);
  if (!config) throw new WizardNotFoundError(simplyId);
  return config;
}

/** Wizards of the team, newest first. Needs TEAM_ADMIN_DATA_WIZARDS (the field's scope). */
export async function listWizards(ctx: RequestContext, args: PageInput): Promise<WizardPage> {
  const team = requireTeam(ctx);
  requireSchemaRead(ctx.principal);
  const paging = parsePaging(args);
  const where = { teamId: team.id };
  const [rows, schema] = await Promise.all([
    ctx.services.prisma.dataWizard.findMany({ where, ...byCreation(paging, 'desc'), include: WIZARD_INCLUDE }),
    ctx.services.schemas.get(team.id),
  ]);
  return { nodes: rows.map((row) => toWizardConfig(schema, row)), pagination: await paginationOf(rows.length, paging, () => ctx.services.prisma.dataWizard.count({ where })) };
}

/** Configuration (detail and schema): TEAM_ADMIN_DATA_WIZARDS view, or RUN on its collection. */
export async function getWizard(ctx: RequestContext, simplyId: string): Promise<WizardConfig> {
  requireTeam(ctx);
  dataWizardId.assert(simplyId, 'dataWizardSimplyId');
  requireSchemaRead(ctx.principal);
  const config = await findWizard(ctx, simplyId);
  if (!hasFeature(ctx.principal, WIZARD_ADMIN_FEATURE, 'VIEW') && !canRun(ctx.principal, config)) {
    throw new PermissionDeniedError(`Reading data wizard ${simplyId} needs ${WIZARD_ADMIN_FEATURE} or the RUN data permission on its collection`);
  }
  return config;
}

/** The wizard a step belongs to, read whole (its steps in order), or 404. */
async function wizardOfStep(ctx: RequestContext, stepSimplyId: string): Promise<WizardConfig | null> {
  const team = requireTeam(ctx);
  const prisma = ctx.services.prisma;
  const step = await prisma.dataWizardStep.findUnique({ where: { teamId_simplyId: { teamId: team.id, simplyId: stepSimplyId } }, select: { wizardId: true } });
  const wizard = step && (await prisma.dataWizard.findUnique({ where: { teamId_id: { teamId: team.id, id: step.wizardId } }, select: { simplyId: true } }));
  return wizard ? loadWizardConfig(prisma, await ctx.services.schemas.get(team.id), wizard.simplyId) : null;
}

/** One step with its tasks (authoring: the field's privileged scope). */
export async function getStep(ctx: RequestContext, stepSimplyId: string): Promise<WizardStep> {
  requireTeam(ctx);
  dataWizardStepId.assert(stepSimplyId, 'dataWizardStepSimplyId');
  const step = (await wizardOfStep(ctx, stepSimplyId))?.steps.find((s) => s.row.simplyId === stepSimplyId);
  if (!step) throw new WizardStepNotFoundError(stepSimplyId);
  return step;
}

/** One task with its field links (authoring: the field's privileged scope). */
export async function getTask(ctx: RequestContext, taskSimplyId: string): Promise<WizardTask> {
  const team = requireTeam(ctx);
  dataWizardStepTaskId.assert(taskSimplyId, 'dataWizardStepTaskSimplyId');
  const row = await ctx.services.prisma.dataWizardStepTask.findUnique({ where: { teamId_simplyId: { teamId: team.id, simplyId: taskSimplyId } }, select: { stepId: true } });
  const step = row && (await ctx.services.prisma.dataWizardStep.findUnique({ where: { teamId_id: { teamId: team.id, id: row.stepId } }, select: { simplyId: true } }));
  const task = step && (await wizardOfStep(ctx, step.simplyId))?.steps.flatMap((s) => s.tasks).find((t) => t.row.simplyId === taskSimplyId);
  if (!task) throw new WizardTaskNotFoundError(taskSimplyId);
  return task;
}

export interface RunAccess {
  dataWizardSimplyId: string;
  firstDataWizardStepSimplyId: string | null;
  stepCount: number;
}

/** Signed-in users only (the field's scope); RUN on the wizard's collection. */
export async function wizardRunAccess(ctx: RequestContext, simplyId: string): Promise<RunAccess> {
  const config = await findWizard(ctx, simplyId);
  requireRun(ctx.principal, config);
  return { dataWizardSimplyId: config.row.simplyId, firstDataWizardStepSimplyId: firstStep(config)?.row.simplyId ?? null, stepCount: config.steps.length };
}

export interface ExecuteArgs {
  dataWizardSimplyId: string;
  dataRecordSimplyId?: string | null;
  formData?: unknown;
}

/** Runs every step on the record. Input problems are 4xx; a run that started answers success true or false. */
export async function executeWizard(ctx: RequestContext, args: ExecuteArgs): Promise<RunWizardResult> {
  const team = requireTeam(ctx);
  const p = ctx.principal;
  if (p.kind === 'SESSION_TOKEN') {
    throw new PermissionDeniedError('Session tokens cannot execute data wizards; use an API key or a signed-in user (Document 1 §4.5)');
  }
  if (!hasScope(p, 'wizards:run')) throw new PermissionDeniedError('This token lacks the OAuth scope wizards:run');
  const config = await findWizard(ctx, args.dataWizardSimplyId);
  requireRun(p, config);
  return runWizard(ctx.services, {
    teamId: team.id,
    dataWizardSimplyId: config.row.simplyId,
    dataRecordSimplyId: args.dataRecordSimplyId ?? '',
    formData: (args.formData ?? undefined) as Record<string, unknown> | undefined,
    principal: p,
    source: ctx.source ?? 'GRAPHQL',
    requestId: ctx.requestId,
  });
}
