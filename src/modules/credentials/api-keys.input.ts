// API key bodies (docs/api/authentication.md). The parsed output is still the GraphQL input
// (`expiresAt` stays an ISO string), so the REST table validates with these and hands the result on.
import { z } from 'zod';
import { DATA_FULL_ACCESS, isFeaturePermission, parseFeatureString } from '../../app/auth/feature-permissions.ts';
import { isValidAllowlistEntry } from '../../app/auth/ip-allowlist.ts';

export const featureStringList = z
  .array(
    z.string().refine((value) => {
      const { name } = parseFeatureString(value);
      return (isFeaturePermission(name) || name === DATA_FULL_ACCESS) && /^[A-Z_]+(:VIEW|:EDIT)?$/.test(value);
    }, 'unknown feature permission (use NAME for edit level or NAME:VIEW for view level)'),
  )
  .max(100);

const allowlist = z
  .array(z.string().trim().refine(isValidAllowlistEntry, 'must be an IPv4/IPv6 address or CIDR range'))
  .max(100);

const futureDateTime = z
  .string({ message: 'must be an ISO 8601 date-time' })
  // the full form with a four-digit year and an offset: Date.parse alone takes "12345" (the year
  // 12345), which was stored and then broke every read of the key. A malformed date is one
  // problem, not also "not in the future"
  .refine((v) => z.iso.datetime({ offset: true }).safeParse(v).success, { message: 'must be an ISO 8601 date-time such as 2027-01-31T12:00:00Z', abort: true })
  .refine((v) => Date.parse(v) > Date.now(), 'must be in the future');

const teamRole = z.string().min(1, 'must be a team role simplyId, or null for none').nullable().optional();

export const createApiKeyInput = z
  .object({
    name: z.string().trim().min(1).max(100),
    teamRoleSimplyId: teamRole,
    featurePermissions: featureStringList.default([]),
    allowedIpAddresses: allowlist.default([]),
    expiresAt: futureDateTime.nullable().optional(),
  })
  .strict();

export const updateApiKeyInput = z
  .object({
    name: z.string().trim().min(1).max(100).optional(),
    teamRoleSimplyId: teamRole,
    featurePermissions: featureStringList.optional(),
    allowedIpAddresses: allowlist.optional(),
    expiresAt: futureDateTime.nullable().optional(),
  })
  .strict();

export type CreateApiKeyInput = z.output<typeof createApiKeyInput>;
export type UpdateApiKeyInput = z.output<typeof updateApiKeyInput>;

/** An optional date-time as the database takes it: null clears, undefined leaves it. */
export function toDate(value: string | null | undefined): Date | null | undefined {
  return typeof value === 'string' ? new Date(value) : value;
}
