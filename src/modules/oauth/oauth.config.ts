// OAuth: how often one address may register clients, and how client metadata documents are fetched. README.md "Configuration" explains each setting.
import { z } from 'zod';
import { defineConfigSlice, envBool } from '../../app/config.ts';

const settings = z.object({
  // dynamic client registrations (POST /oauth/register) one client address may make per hour
  OAUTH_REGISTRATIONS_PER_HOUR: z.coerce.number().int().min(1).max(10_000).default(20),
  // tests only: client metadata documents (an https client_id) may be fetched from loopback hosts
  OAUTH_CLIENT_METADATA_ALLOW_LOOPBACK: envBool.default(false),
  // PEM certificate(s) trusted when fetching client metadata documents, besides the system roots (tests)
  OAUTH_CLIENT_METADATA_CA_FILE: z.string().optional(),
});

declare module '../../app/config.ts' {
  interface Env extends z.infer<typeof settings> {}
}

export const oauthConfig = defineConfigSlice({
  settings,
});
