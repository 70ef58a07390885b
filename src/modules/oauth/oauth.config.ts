// OAuth: how often one address may register clients. README.md "Configuration" explains each setting.
import { z } from 'zod';
import { defineConfigSlice } from '../../app/config.ts';

const settings = z.object({
  // dynamic client registrations (POST /oauth/register) one client address may make per hour
  OAUTH_REGISTRATIONS_PER_HOUR: z.coerce.number().int().min(1).max(10_000).default(20),
});

declare module '../../app/config.ts' {
  interface Env extends z.infer<typeof settings> {}
}

export const oauthConfig = defineConfigSlice({
  settings,
});
