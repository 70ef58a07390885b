// User bodies (docs/api/users.md): the self-service profile and user creation.
import { z } from 'zod';
import { teamId } from '../../app/ids.ts';
import { isLanguageTag } from '../../app/localized-text.ts';
import { teamRoleId } from '../team-roles/index.ts';

const name = z.string().trim().max(100);

export const updateMeInput = z
  .object({
    firstName: name.optional(),
    lastName: name.optional(),
    defaultInterfaceLanguageId: z.string().refine(isLanguageTag, 'must be a language tag such as "en" or "pt-BR"').nullable().optional(),
    /** stamps the selected team's membership as opened now (the team switcher orders by it) */
    teamOpened: z.literal(true, { error: 'only true (stamps the selected team as opened now)' }).optional(),
  })
  .strict();

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
            teamSimplyId: z.string().refine((v) => teamId.is(v), 'must be a team simplyId'),
            isTeamAdmin: z.boolean().default(false),
            teamRoleSimplyId: z.string().refine(teamRoleId.is, 'must be a team role simplyId').nullable().optional(),
          })
          .strict(),
      )
      .max(50)
      .default([]),
  })
  .strict();
