// The AI SDK is loaded only when a model is configured: loading every module of the platform (as a
// server without AI_BASE_URL does) resolves neither `ai` nor the provider package, and creating a
// provider does.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

const SCRIPT = `
import { registerHooks } from 'node:module';
const seen = new Set();
registerHooks({ resolve(specifier, context, next) { if (specifier === 'ai' || specifier.startsWith('@ai-sdk/')) seen.add(specifier); return next(specifier, context); } });
await import('./src/main/modules.ts');
const ai = await import('./src/app/ai/index.ts');
const before = [...seen];
await ai.createAiProvider({ baseUrl: 'http://127.0.0.1:9/v1', apiKey: undefined, model: 'm', timeoutMs: 1000, maxRetries: 0, runTokenBudget: 1000, retryBaseDelayMs: 10 });
console.log(JSON.stringify({ before, after: [...seen].sort() }));
`;

it('loads the AI SDK only when a provider is created', () => {
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', SCRIPT], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NODE_ENV: 'test' } });
  const { before, after } = JSON.parse(out.trim().split('\n').at(-1)!) as { before: string[]; after: string[] };
  expect(before).toEqual([]);
  expect(after).toEqual(expect.arrayContaining(['@ai-sdk/openai-compatible', 'ai']));
}, 60_000);
