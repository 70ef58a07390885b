// Webhook deliveries: trusted certificates, loopback for tests, concurrency per target, the breaker's first pause (tests). README.md "Configuration" explains each setting.
import { z } from 'zod';
import { defineConfigSlice, envBool } from '../../app/config.ts';

const settings = z.object({
  // tests only: let webhooks target loopback addresses (everything else stays refused)
  WEBHOOK_ALLOW_LOOPBACK: envBool.default(false),
  // PEM certificate(s) webhook deliveries trust besides the system roots (tests' self-signed receivers)
  WEBHOOK_CA_FILE: z.string().optional(),
  // attempts to one webhook target (one team's target origin) in flight at once over every instance
  WEBHOOK_TARGET_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(100),
  // tests only: a failing target's first pause (doubling after each further failure, up to 10 minutes)
  WEBHOOK_BREAKER_PAUSE_SECONDS: z.coerce.number().int().min(1).max(600).default(30),
});

declare module '../../app/config.ts' {
  interface Env extends z.infer<typeof settings> {}
}

export const webhooksConfig = defineConfigSlice({
  settings,
});
