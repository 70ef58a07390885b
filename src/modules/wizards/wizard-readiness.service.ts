// GET …/studio-readiness (docs/api/data-wizards.md "Studio readiness"): the wizard as stored, its
// links read raw (wizard-readiness.ts), the team schema and the wizard's outcome automations.
// Privileged: the field's scope (TEAM_ADMIN_DATA_WIZARDS view, or a team admin).
import type { RequestContext } from '../../app/context.ts';
import type { Tx } from '../../app/transaction.ts';
import { requireTeam } from '../../app/require-team.ts';
import type { PrismaClient } from '../../generated/prisma/client.ts';
import type { TeamSchema } from '../../kernel/index.ts';
import { wizardOutcomeAutomations } from '../automations/index.ts';
import { WIZARD_INCLUDE } from './wizard-config.ts';
import { type WizardReadiness, wizardReadiness } from './wizard-readiness.ts';
import { WizardNotFoundError } from './wizards.errors.ts';
import { dataWizardId } from './wizards.ids.ts';

/** The readiness of a wizard of the team, or null when there is none by that id. */
export async function readinessOf(db: PrismaClient | Tx, schema: TeamSchema, simplyId: string): Promise<WizardReadiness | null> {
  const wizard = await db.dataWizard.findUnique({ where: { teamId_simplyId: { teamId: schema.teamId, simplyId } }, include: WIZARD_INCLUDE });
  if (!wizard) return null;
  return wizardReadiness(wizard, schema, await wizardOutcomeAutomations(db, schema.teamId, simplyId));
}

export async function getWizardReadiness(ctx: RequestContext, simplyId: string): Promise<WizardReadiness> {
  const team = requireTeam(ctx);
  dataWizardId.assert(simplyId, 'dataWizardSimplyId');
  const readiness = await readinessOf(ctx.services.prisma, await ctx.services.schemas.get(team.id), simplyId);
  if (!readiness) throw new WizardNotFoundError(simplyId);
  return readiness;
}
