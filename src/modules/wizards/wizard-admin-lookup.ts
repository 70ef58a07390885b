// The wizard an administration operation names (runs, readiness, external-access links): in the
// caller's team, or 404. Who may call is the field's privileged scope (wizards-admin.schema.ts).
import type { RequestContext } from '../../app/context.ts';
import { requireTeam } from '../../app/require-team.ts';
import { loadWizardConfig, type WizardConfig } from './wizard-config.ts';
import { WizardNotFoundError } from './wizards.errors.ts';
import { dataWizardId } from './wizards.ids.ts';

export async function findAdminWizard(ctx: RequestContext, simplyId: string): Promise<WizardConfig> {
  const team = requireTeam(ctx);
  dataWizardId.assert(simplyId, 'dataWizardSimplyId');
  const config = await loadWizardConfig(ctx.services.prisma, await ctx.services.schemas.get(team.id), simplyId);
  if (!config) throw new WizardNotFoundError(simplyId);
  return config;
}
