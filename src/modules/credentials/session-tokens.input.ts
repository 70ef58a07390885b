// Session token request body (docs/api/authentication.md); every field is optional.
import { z } from 'zod';
import { featureStringList } from './api-keys.input.ts';

const METADATA_MAX_BYTES = 4096;

export const createSessionTokenInput = z
  .object({
    expiresInMinutes: z.number().int().min(1).max(1440).default(60),
    featurePermissions: featureStringList.optional(),
    oauthScopes: z.array(z.string()).max(50).optional(),
    metadata: z
      .record(z.string(), z.unknown())
      .nullable()
      .optional()
      .refine((m) => m == null || Buffer.byteLength(JSON.stringify(m)) <= METADATA_MAX_BYTES, `metadata is limited to ${METADATA_MAX_BYTES} bytes of JSON`),
  })
  .strict();
