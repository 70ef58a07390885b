// Two rewrites of the generated client that only change what a running server keeps in memory:
// - Prisma's query compiler (WebAssembly) comes as a module exporting it as a 2.2 MB base64 string:
//   the module's source and the string stay in the heap for the life of the process (4.4 MiB). It is
//   written out as a .wasm file beside the client instead, and read from there when the client starts.
// - V8 keeps every module's source; a source holding one character outside Latin-1 is kept at two
//   bytes a character. The generated files hold a few (emoji in banners, arrows in the schema's
//   comments), so each is written as a \u escape, which means the same in comments and strings.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const WASM_FILE = 'query_compiler_bg.wasm';
const BASE64_LOADER = /const \{ wasm \} = await import\("(@prisma\/client\/runtime\/query_compiler_[\w.]+\.wasm-base64\.mjs)"\)\s*\n\s*return await decodeBase64AsWasm\(wasm\)/;

export async function slimGeneratedClient(clientDir: string, resolveFrom: string): Promise<void> {
  const classFile = path.join(clientDir, 'internal', 'class.ts');
  const source = fs.readFileSync(classFile, 'utf8');
  const loader = BASE64_LOADER.exec(source);
  if (loader) {
    const { wasm } = (await import(createRequire(resolveFrom).resolve(loader[1]!))) as { wasm: string };
    fs.writeFileSync(path.join(clientDir, 'internal', WASM_FILE), Buffer.from(wasm, 'base64'));
    const fromFile = `const { readFile } = await import('node:fs/promises')\n    return await WebAssembly.compile(await readFile(new URL('./${WASM_FILE}', import.meta.url)))`;
    fs.writeFileSync(classFile, source.replace(loader[0], fromFile));
  } else if (!source.includes(WASM_FILE)) {
    process.stderr.write(`prisma-generate: the query compiler's loader in ${classFile} has changed; it stays a base64 module\n`);
  }
  for (const file of fs.readdirSync(clientDir, { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.ts')) continue;
    const full = path.join(clientDir, file);
    const text = fs.readFileSync(full, 'utf8');
    const latin1 = text.replace(/[^\u0000-\u00ff]/gu, (char) => `\\u{${char.codePointAt(0)!.toString(16)}}`);
    if (latin1 !== text) fs.writeFileSync(full, latin1);
  }
}
