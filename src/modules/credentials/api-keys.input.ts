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

const futureDate = z.coerce
  .date({ message: 'must be an ISO 8601 date-time' })
  .refine((d) => d.getTime() > Date.now(), 'must be in the future');

export const createApiKeyInput = z
  .object({
    name: z.string().trim().min(1).max(100),
    teamRoleSimplyId: z.string().min(1, 'must be a team role simplyId, or null for none').nullable().optional(),
    featurePermissions: featureStringList.default([]),
    allowedIpAddresses: allowlist.default([]),
    expiresAt: futureDate.nullable().optional(),
  })
  .strict();

export const updateApiKeyInput = z
  .object({
    name: z.string().trim().min(1).max(100).optional(),
    teamRoleSimplyId: z.string().min(1, 'must be a team role simplyId, or null for none').nullable().optional(),
    featurePermissions: featureStringList.optional(),
    allowedIpAddresses: allowlist.optional(),
    expiresAt: futureDate.nullable().optional(),
  })
  .strict();

export type CreateApiKeyInput = z.output<typeof createApiKeyInput>;
export type UpdateApiKeyInput = z.output<typeof updateApiKeyInput>;
