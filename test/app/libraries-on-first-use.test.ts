// Libraries that only some requests or jobs need are loaded by their first use (src/app/on-first-use.ts,
// the MCP endpoint's handler, the OAuth server's oidc-provider): loading every module of the
// platform, as a server does when it starts, resolves none of them.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

const ON_FIRST_USE = [
  '@modelcontextprotocol/server',
  'htmlparser2',
  'ical-generator',
  'libphonenumber-js',
  'mailparser',
  'maxmind',
  'nodemailer',
  'oidc-provider',
  'postcss',
  'qrcode',
  'sanitize-html',
  'sharp',
  'smtp-server',
  'tinyld',
  'undici',
  'web-push',
  'yauzl',
];

const SCRIPT = `
import { registerHooks } from 'node:module';
const watched = new Set(${JSON.stringify(ON_FIRST_USE)});
const seen = new Set();
registerHooks({ resolve(specifier, context, next) {
  const name = specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');
  if (watched.has(name)) seen.add(name);
  return next(specifier, context);
} });
await import('./src/main/modules.ts');
await import('./src/main/schema.ts');
console.log(JSON.stringify([...seen].sort()));
`;

it('loads no library that only some requests need when the platform loads', () => {
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', SCRIPT], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NODE_ENV: 'test' } });
  expect(JSON.parse(out.trim().split('\n').at(-1)!)).toEqual([]);
}, 60_000);
