// `svc export` and `svc import`: clients of a running platform over HTTPS that start a background
// task and follow it. Loaded by svc to list them; the client itself loads only when one runs.
import type { CliCommand } from '../../app/cli/cli-command.ts';
import { TASK_COMMANDS_USAGE } from './cli/task-commands-usage.ts';

// the two commands share their connection options, so their usage is one text
export const cliCommands: CliCommand[] = [
  { name: 'export', usage: '', run: async (args) => (await import('./cli/task-commands.ts')).exportCommand(args) },
  { name: 'import', usage: TASK_COMMANDS_USAGE, run: async (args) => (await import('./cli/task-commands.ts')).importCommand(args) },
];
