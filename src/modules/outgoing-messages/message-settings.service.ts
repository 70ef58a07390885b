// The team's messaging settings: whether composed messages need approval before they are
// scheduled or sent. A team without a row has the defaults (no approval).
import type { RequestContext, Services } from '../../app/context.ts';
import { requireTeam } from '../../app/require-team.ts';
import { parseInput } from '../../app/validate.ts';
import { messageSettingsInput } from './outgoing-messages.input.ts';

export interface MessageSettings {
  approvalRequired: boolean;
  /** null until the settings were first changed */
  updatedAt: Date | null;
}

export async function approvalRequired(services: Services, teamId: bigint): Promise<boolean> {
  const row = await services.prisma.teamMessagingSettings.findUnique({ where: { teamId } });
  return row?.approvalRequired ?? false;
}

export async function getMessageSettings(ctx: RequestContext): Promise<MessageSettings> {
  const team = requireTeam(ctx);
  const row = await ctx.services.prisma.teamMessagingSettings.findUnique({ where: { teamId: team.id } });
  return { approvalRequired: row?.approvalRequired ?? false, updatedAt: row?.updatedAt ?? null };
}

/** One upsert: concurrent changes each apply whole, the last one wins. */
export async function updateMessageSettings(ctx: RequestContext, raw: unknown): Promise<MessageSettings> {
  const team = requireTeam(ctx);
  const input = parseInput(messageSettingsInput, raw, 'Invalid message settings');
  const row = await ctx.services.prisma.teamMessagingSettings.upsert({
    where: { teamId: team.id },
    create: { teamId: team.id, approvalRequired: input.approvalRequired },
    update: { approvalRequired: input.approvalRequired },
  });
  return { approvalRequired: row.approvalRequired, updatedAt: row.updatedAt };
}
