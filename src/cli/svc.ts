// The `svc` command: start | worker | migrate | bootstrap | counts, and the commands areas add
// (export, import, oauth-clients). See README.md. The server commands (server-commands.ts) load the whole
// platform; an area's command (area-commands.ts) loads only what it uses.
import module from 'node:module';
import { ApiError } from '../app/errors.ts';
import { areaCommands, fullUsage } from './area-commands.ts';

// Node keeps what it compiled (the type-stripped sources, the dependencies) in its on-disk cache
// (NODE_COMPILE_CACHE, else the system's temp folder): later starts load the platform in about
// half the time. NODE_DISABLE_COMPILE_CACHE=1 turns it off.
module.enableCompileCache?.();

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  // an area's own commands (src/modules/<area>/<area>.cli.ts); the serving ones never look
  if (command !== 'start' && command !== 'worker') {
    const area = (await areaCommands()).find((c) => c.name === command);
    if (area) return area.run(rest);
  }
  // the serving processes run under their heap settings: started without them, the process
  // replaces itself before it loads the platform (-1: a relaunched child decides the exit)
  if (command === 'start' || command === 'worker') {
    const { relaunchWithServerFlags } = await import('./server-flags.ts');
    if (relaunchWithServerFlags()) return -1;
  }
  const { runServerCommand } = await import('./server-commands.ts');
  if (command === 'start' || command === 'worker') {
    const { replaceOnceCompiled } = await import('./compiled-relaunch.ts');
    replaceOnceCompiled();
  }
  const code = await runServerCommand(command, rest);
  if (code !== null) return code;
  process.stderr.write(await fullUsage());
  return command === undefined || command === 'help' || command === '--help' ? 0 : 2;
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (error) => {
    if (error instanceof ApiError) process.stderr.write(`svc: ${error.message}\n`);
    else process.stderr.write(`svc: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
