// `svc teams plan`: an operator sets a team's action-tag plan on the database directly. Loaded by
// svc to list it; the database and the service load only when it runs.
import type { CliCommand } from '../../app/cli/cli-command.ts';
import { TEAMS_PLAN_USAGE } from './cli/teams-plan-usage.ts';

export const cliCommands: CliCommand[] = [{ name: 'teams', usage: TEAMS_PLAN_USAGE, run: async (args) => (await import('./cli/teams-plan-command.ts')).teamsCommand(args) }];
