// The body of POST /v1/users/me/sessions (docs/api/users.md "Signed-in sessions").
import { z } from 'zod';
import { platformSchema } from './mobile-devices.input.ts';

export const describeSessionInput = z.strictObject({
  platform: platformSchema.nullable().optional(),
  deviceName: z.string().trim().min(1).max(100).nullable().optional(),
});
