// The commands areas add to svc: every `src/modules/<area>/<area>.cli.ts` (src/app/cli/cli-command.ts),
// found by name so that svc loads neither the module list nor any area's server code.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CliCommand } from '../app/cli/cli-command.ts';
import { SERVER_USAGE } from './usage.ts';

const MODULES = fileURLToPath(new URL('../modules/', import.meta.url));

export async function areaCommands(): Promise<CliCommand[]> {
  const files = fs.globSync('*/*.cli.ts', { cwd: MODULES }).sort();
  const loaded = await Promise.all(files.map(async (file) => ((await import(path.join(MODULES, file))) as { cliCommands?: CliCommand[] }).cliCommands ?? []));
  return loaded.flat();
}

/** The whole usage text: the server commands, then the areas'. */
export async function fullUsage(): Promise<string> {
  return SERVER_USAGE + (await areaCommands()).map((c) => c.usage).join('');
}
