// The schema-engine executable the Prisma CLI runs (through scripts/prisma-schema-engine, named by
// PRISMA_SCHEMA_ENGINE_BINARY), implemented over @prisma/schema-engine-wasm. docs/prisma-offline.md
// describes the protocol and the workflow.
import { engineCommitHash } from '../src/db/schema-engine/load-wasm.ts';
import { parseShimArgs, ShimUsageError } from '../src/db/schema-engine/shim/args.ts';
import { runOneShotCommand } from '../src/db/schema-engine/shim/one-shot-commands.ts';
import { runRpcServer } from '../src/db/schema-engine/shim/rpc-server.ts';

const USAGE = `schema-engine (wasm shim)
  --version                                        print the engine commit hash
  --datasource '<json>' cli <can-connect-to-database|create-database|drop-database>
  [--datamodels <file.prisma>]... [--datasource '<json>']   JSON-RPC on stdin/stdout`;

try {
  const invocation = parseShimArgs(process.argv.slice(2));
  switch (invocation.mode) {
    case 'version':
      // The CLI compares this with the engine hash it was built for.
      process.stdout.write(`schema-engine-cli ${engineCommitHash()}\n`);
      break;
    case 'help':
      process.stdout.write(`${USAGE}\n`);
      break;
    case 'cli':
      process.exitCode = await runOneShotCommand(invocation.command, invocation.datasource);
      break;
    case 'rpc':
      process.exitCode = await runRpcServer(invocation);
      break;
  }
} catch (error) {
  const message = error instanceof ShimUsageError ? `${error.message}\n${USAGE}` : String((error as Error)?.stack ?? error);
  process.stderr.write(`${JSON.stringify({ level: 'ERROR', fields: { message }, target: 'schema_engine_cli' })}\n`);
  process.exitCode = error instanceof ShimUsageError ? 2 : 1;
}
