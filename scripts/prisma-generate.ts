// Runs `prisma generate` without Prisma's binary downloads: the CLI only checks that
// the schema-engine executable named by PRISMA_SCHEMA_ENGINE_BINARY exists, and ours
// (scripts/prisma-schema-engine) drives the WebAssembly engine instead. The client it writes is then
// rewritten to weigh less in a running server (prisma-client-memory.ts).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { slimGeneratedClient } from './prisma-client-memory.ts';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const env: NodeJS.ProcessEnv = {
  ...process.env,
  PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? path.join(root, 'scripts', 'prisma-schema-engine'),
  CHECKPOINT_DISABLE: '1',
  PRISMA_HIDE_UPDATE_MESSAGE: '1',
};
const prismaBin = path.join(root, 'node_modules', '.bin');
const result = spawnSync('prisma', ['generate', ...process.argv.slice(2)], {
  cwd: root,
  env: { ...env, PATH: `${prismaBin}${path.delimiter}${env.PATH ?? ''}` },
  stdio: 'inherit',
});
if (result.status === 0) await slimGeneratedClient(path.join(root, 'src', 'generated', 'prisma'), path.join(root, 'package.json'));
process.exit(result.status ?? 1);
