// Team labels, as far as files need them: create and list (GraphQL), attach through a file's
// PATCH (labelSimplyIds). Reading needs TEAM_ADMIN_MEDIA_LIBRARY view, creating edit.
import { z } from 'zod';
import type { RequestContext } from '../../app/context.ts';
import { ConflictError, PermissionDeniedError } from '../../app/errors.ts';
import { requireTeam } from '../../app/require-team.ts';
import { parseInput } from '../../app/validate.ts';
import type { TeamLabel } from '../../generated/prisma/client.ts';
import { canViewMediaLibrary, requireMediaLibraryEdit } from './files.access.ts';
import { teamLabelId } from './files.ids.ts';

export const LABELS_PER_TEAM_MAX = 500;

export const createLabelInput = z.strictObject({
  name: z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters'),
  color: z.string().regex(/^#[0-9a-fA-F]{6}$/, 'must be a #rrggbb colour').nullish(),
});

export async function listTeamLabels(ctx: RequestContext): Promise<TeamLabel[]> {
  if (!canViewMediaLibrary(ctx.principal)) throw new PermissionDeniedError('Labels need TEAM_ADMIN_MEDIA_LIBRARY');
  return ctx.services.prisma.teamLabel.findMany({ where: { teamId: requireTeam(ctx).id }, orderBy: [{ name: 'asc' }] });
}

export async function createTeamLabel(ctx: RequestContext, raw: unknown): Promise<TeamLabel> {
  requireMediaLibraryEdit(ctx.principal, 'Creating a label');
  const team = requireTeam(ctx);
  const input = parseInput(createLabelInput, raw, 'Invalid label');
  const { prisma } = ctx.services;
  if ((await prisma.teamLabel.count({ where: { teamId: team.id } })) >= LABELS_PER_TEAM_MAX) throw new ConflictError(`A team has at most ${LABELS_PER_TEAM_MAX} labels`);
  const existing = await prisma.teamLabel.findUnique({ where: { teamId_name: { teamId: team.id, name: input.name } } });
  if (existing) throw new ConflictError(`A label named "${input.name}" already exists`);
  return prisma.teamLabel.create({ data: { simplyId: teamLabelId.create(), teamId: team.id, name: input.name, color: input.color ?? null } });
}
