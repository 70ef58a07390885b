// The body of POST …/external-access-links (docs/api/data-wizards.md "External-access links"),
// parsed by the service (both faces) and used by the REST table for the reference.
import { z } from 'zod';

/** A link lives this long when the body names no expiresAt. */
export const DEFAULT_LINK_LIFETIME_DAYS = 7;
/** ... and at most this long: a form on the open internet should not stay open for ever. */
export const MAX_LINK_LIFETIME_DAYS = 90;
export const MAX_LINK_USES = 1000;
export const MAX_LINK_LABEL = 200;
/** links of one wizard that still work (neither revoked nor expired) */
export const MAX_ACTIVE_LINKS_PER_WIZARD = 500;

export const DAY_MS = 24 * 60 * 60 * 1000;

export const externalLinkInput = z.strictObject(
  {
    dataRecordSimplyId: z.string({ error: 'is required (a record of the wizard\'s collection, XXXX-XXXX-XXXX)' }).describe("the record the link fills in: a record of the wizard's collection"),
    expiresAt: z.iso
      .datetime({ offset: true, error: 'must be an ISO 8601 date-time with an offset (2026-12-24T18:00:00Z)' })
      .nullish()
      .describe(`when the link stops working; default ${DEFAULT_LINK_LIFETIME_DAYS} days from now, at most ${MAX_LINK_LIFETIME_DAYS} days from now`),
    maxUses: z
      .number({ error: 'must be an integer' })
      .int('must be an integer')
      .min(1, 'must be 1 or more')
      .max(MAX_LINK_USES, `must be at most ${MAX_LINK_USES}`)
      .nullish()
      .describe(`completed submissions after which the link stops working (1-${MAX_LINK_USES}); default none: it works until it expires`),
    label: z
      .string({ error: 'must be a string' })
      .trim()
      .max(MAX_LINK_LABEL, `at most ${MAX_LINK_LABEL} characters`)
      .nullish()
      .transform((v) => (v ? v : null))
      .describe(`who or what the link is for, shown in the list (at most ${MAX_LINK_LABEL} characters)`),
  },
  { error: 'The request body must be a JSON object' },
);

export type ExternalLinkInput = z.output<typeof externalLinkInput>;
