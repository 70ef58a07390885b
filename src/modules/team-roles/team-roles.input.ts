// Team role body (docs/api/team-roles.md): PUT replaces the whole role.
import { z } from 'zod';
import { FEATURE_PERMISSIONS } from '../../app/auth/feature-permissions.ts';
import { simplyIdPattern } from '../../app/ids.ts';
import { dataFieldId } from '../../kernel/index.ts';

const collectionTarget = z
  .string()
  .refine((v) => v === '*' || simplyIdPattern().test(v), 'must be a collection simplyId (XXXX-XXXX-XXXX) or "*"');

export const teamRoleInput = z
  .object({
    name: z.string().trim().min(1).max(100),
    dataPermissions: z
      .array(
        z.object({
          dataCollectionSimplyId: collectionTarget,
          level: z.enum(['READ', 'EDIT', 'RUN']),
        }),
      )
      .max(1000)
      .default([]),
    featurePermissions: z
      .array(z.object({ name: z.enum(FEATURE_PERMISSIONS), level: z.enum(['VIEW', 'EDIT']) }))
      .max(FEATURE_PERMISSIONS.length * 2)
      .default([]),
    dataFullAccess: z.enum(['READ', 'EDIT']).nullable().default(null),
    // narrows the collection grants for single fields (the lower level wins)
    fieldPermissions: z
      .array(
        z.object({
          dataFieldSimplyId: z.string().regex(dataFieldId.pattern, 'must be a data field simplyId (fld-XXXX-XXXX-XXXX)'),
          level: z.enum(['NONE', 'READ', 'EDIT']),
        }),
      )
      .max(5000)
      .default([]),
  })
  .strict();

export type TeamRoleInput = z.output<typeof teamRoleInput>;

/** Collapses repeats so a role stores each grant once (the table is unique on them). */
export function normalizeRole(input: TeamRoleInput): TeamRoleInput {
  const data = new Map(input.dataPermissions.map((p) => [`${p.dataCollectionSimplyId}|${p.level}`, p]));
  const features = new Map<string, TeamRoleInput['featurePermissions'][number]>();
  for (const f of input.featurePermissions) {
    if (features.get(f.name)?.level !== 'EDIT') features.set(f.name, f);
  }
  // one entry per field: the most restrictive one given wins
  const rank = { NONE: 0, READ: 1, EDIT: 2 } as const;
  const fields = new Map<string, TeamRoleInput['fieldPermissions'][number]>();
  for (const f of input.fieldPermissions) {
    const held = fields.get(f.dataFieldSimplyId);
    if (!held || rank[f.level] < rank[held.level]) fields.set(f.dataFieldSimplyId, f);
  }
  return { ...input, dataPermissions: [...data.values()], featurePermissions: [...features.values()], fieldPermissions: [...fields.values()] };
}
