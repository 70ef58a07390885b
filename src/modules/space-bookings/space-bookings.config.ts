// Space bookings: the public booking routes' per-address limit, and the host of the spaces webhook
// receiver that webhook subscriptions must target. README.md "Configuration" explains each setting.
import { z } from 'zod';
import { defineConfigSlice } from '../../app/config.ts';

const settings = z.object({
  // requests one address may make to the public booking-link routes per minute, over every instance
  SVC_SPACES_PUBLIC_REQUESTS_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(120),
  // the host (and optional port) of the spaces webhook receiver: targets are https://<host>/svc-spaces/webhooks/<sourceConnectionSimplyId>
  SVC_SPACES_WEBHOOK_HOST: z.string().regex(/^[a-z0-9.-]+(:\d+)?$/i).default('spaces-hooks.localhost'),
});

declare module '../../app/config.ts' {
  interface Env extends z.infer<typeof settings> {}
}

export const spaceBookingsConfig = defineConfigSlice({ settings });
