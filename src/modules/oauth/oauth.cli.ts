// `svc oauth-clients`: an operator registers, lists and revokes the authorization server's clients
// on the database directly. Loaded by svc to list it; the database and the service load only when it runs.
import type { CliCommand } from '../../app/cli/cli-command.ts';
import { OAUTH_CLIENTS_USAGE } from './cli/oauth-clients-usage.ts';

export const cliCommands: CliCommand[] = [
  { name: 'oauth-clients', usage: OAUTH_CLIENTS_USAGE, run: async (args) => (await import('./cli/oauth-clients-command.ts')).oauthClientsCommand(args) },
];
