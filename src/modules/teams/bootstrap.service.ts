// First-run setup: a team, a team-admin user, a full-access role and an API key using it.
// Used by `svc bootstrap` (and the tests' fixtures) directly against the database.
import { randomBytes } from 'node:crypto';
import type { PrismaClient } from '../../generated/prisma/client.ts';
import { API_KEY_PREFIX, hashToken, newApiKey, tokenHint } from '../../app/auth/tokens.ts';
import { hashPassword } from '../../app/auth/passwords.ts';
import { ValidationError } from '../../app/errors.ts';
import { runTransaction } from '../../app/transaction.ts';
import { membershipId, teamId, userId } from '../../app/ids.ts';
import { FEATURE_PERMISSIONS } from '../../app/auth/feature-permissions.ts';
import { apiKeyId } from '../credentials/index.ts';
import { teamRoleId } from '../team-roles/index.ts';

export interface BootstrapResult {
  teamId: bigint;
  teamSimplyId: string;
  userId: bigint;
  userSimplyId: string;
  email: string;
  /** null when the user already existed (their password is unchanged) */
  password: string | null;
  apiKey: string;
  apiKeySimplyId: string;
  teamRoleSimplyId: string;
}

export async function bootstrapTeam(
  prisma: PrismaClient,
  input: { teamName: string; email: string; password?: string; isSystemAdmin?: boolean },
): Promise<BootstrapResult> {
  const teamName = input.teamName.trim();
  const email = input.email.trim().toLowerCase();
  if (!teamName || teamName.length > 100) throw new ValidationError('--team must be 1-100 characters');
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) throw new ValidationError('--email must be an email address');
  if (input.password !== undefined && input.password.length < 12) throw new ValidationError('--password must be at least 12 characters');
  const apiKey = newApiKey();
  return runTransaction(prisma, async (tx) => {
    const team = await tx.team.create({ data: { simplyId: teamId.create(), name: teamName } });
    let user = await tx.user.findUnique({ where: { email } });
    let password: string | null = null;
    if (!user) {
      password = input.password ?? randomBytes(15).toString('base64url');
      user = await tx.user.create({
        data: {
          simplyId: userId.create(),
          email,
          passwordHash: await hashPassword(password),
          isSystemAdmin: input.isSystemAdmin ?? false,
        },
      });
    }
    await tx.teamMembership.create({
      data: { simplyId: membershipId.create(), teamId: team.id, userId: user.id, isTeamAdmin: true },
    });
    const role = await tx.teamRole.create({
      data: {
        simplyId: teamRoleId.create(),
        teamId: team.id,
        name: 'Full access',
        dataFullAccess: 'EDIT',
        featurePermissions: FEATURE_PERMISSIONS.map((name) => ({ name, level: 'EDIT' })),
      },
    });
    const key = await tx.apiKey.create({
      data: {
        simplyId: apiKeyId.create(),
        teamId: team.id,
        name: 'Bootstrap key',
        keyHash: hashToken(apiKey),
        keyHint: tokenHint(apiKey, API_KEY_PREFIX),
        teamRoleId: role.id,
        featurePermissions: [...FEATURE_PERMISSIONS],
        createdByUserId: user.id,
      },
    });
    return {
      teamId: team.id,
      teamSimplyId: team.simplyId,
      userId: user.id,
      userSimplyId: user.simplyId,
      email,
      password,
      apiKey,
      apiKeySimplyId: key.simplyId,
      teamRoleSimplyId: role.simplyId,
    };
  });
}
