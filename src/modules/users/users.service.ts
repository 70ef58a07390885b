// Users (Document 2 §2.6, §4.5). Users are global; a team sees them through memberships.
import { z } from 'zod';
import type { RequestContext } from '../../app/context.ts';
import { hashPassword } from '../../app/auth/passwords.ts';
import { NotFoundError } from '../../app/errors.ts';
import { isSimplyId, newSimplyId } from '../../app/ids.ts';
import { isLanguageTag } from '../../app/localized-text.ts';
import { parseInput } from '../../app/validate.ts';
import { publishCredentialInvalidation } from '../../app/auth/credential-invalidation.ts';
import { runTransaction } from '../../db/transaction.ts';

const name = z.string().trim().max(100);

const updateMeInput = z
  .object({
    firstName: name.optional(),
    lastName: name.optional(),
    defaultInterfaceLanguageId: z.string().refine(isLanguageTag, 'must be a language tag such as "en" or "pt-BR"').nullable().optional(),
  })
  .strict();

export async function updateMe(ctx: RequestContext, raw: unknown): Promise<bigint> {
  const input = parseInput(updateMeInput, raw, 'Invalid profile update');
  const userId = ctx.principal.userId!;
  await ctx.services.prisma.user.update({ where: { id: userId }, data: input });
  return userId;
}

export const PASSWORD_MIN_LENGTH = 12;

export const createUserInput = z
  .object({
    email: z.string().trim().toLowerCase().email().max(320),
    firstName: name.default(''),
    lastName: name.default(''),
    password: z.string().min(PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`).max(200).optional(),
    isSystemAdmin: z.boolean().default(false),
    teams: z
      .array(
        z
          .object({
            teamSimplyId: z.string().refine((v) => isSimplyId(v, 'team'), 'must be a team simplyId'),
            isTeamAdmin: z.boolean().default(false),
            teamRoleSimplyId: z.string().refine((v) => isSimplyId(v, 'teamRole'), 'must be a team role simplyId').nullable().optional(),
          })
          .strict(),
      )
      .max(50)
      .default([]),
  })
  .strict();

/** System administrators only: creates a user with team associations, all or nothing. */
export async function createUser(ctx: RequestContext, raw: unknown): Promise<bigint> {
  const input = parseInput(createUserInput, raw, 'Invalid user');
  const passwordHash = input.password ? await hashPassword(input.password) : null;
  const userId = await runTransaction(ctx.services.prisma, async (tx) => {
    const user = await tx.user.create({
      data: {
        simplyId: newSimplyId('user'),
        email: input.email,
        firstName: input.firstName,
        lastName: input.lastName,
        passwordHash,
        isSystemAdmin: input.isSystemAdmin,
      },
    });
    for (const link of input.teams) {
      const team = await tx.team.findUnique({ where: { simplyId: link.teamSimplyId } });
      if (!team) throw new NotFoundError('Team', link.teamSimplyId);
      const role = link.teamRoleSimplyId
        ? await tx.teamRole.findUnique({ where: { teamId_simplyId: { teamId: team.id, simplyId: link.teamRoleSimplyId } } })
        : null;
      if (link.teamRoleSimplyId && !role) throw new NotFoundError('Team role', link.teamRoleSimplyId);
      await tx.teamMembership.create({
        data: {
          simplyId: newSimplyId('membership'),
          teamId: team.id,
          userId: user.id,
          isTeamAdmin: link.isTeamAdmin,
          teamRoleId: role?.id ?? null,
        },
      });
    }
    return user.id;
  });
  await publishCredentialInvalidation(ctx.services.notifier, ctx.services.authenticator, { userId });
  return userId;
}
