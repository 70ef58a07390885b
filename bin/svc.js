#!/usr/bin/env node
// `svc` on PATH (npm link / npx svc): runs the TypeScript CLI with Node's type stripping (Node >= 22.15).
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 15)) {
  console.error(`svc needs Node.js >= 22.15 (this is ${process.version}); see README.md`);
  process.exit(1);
}
await import(path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'src', 'cli', 'svc.ts'));
