// The layering rules of docs/architecture.md, checked on the source text: infrastructure never
// reaches up into an area, services know nothing of GraphQL, resolvers hold no database code, the
// REST adapter never touches the database, and every area is one registered folder.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CORE_ID_PREFIXES } from '../../src/app/ids.ts';
import { modules } from '../../src/main/modules.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => path.join(dir, f));
}

/** Every module specifier a file imports, resolved to a path from the repository root when relative. */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
  const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)].map((m) => m[1]!);
  return specifiers.map((s) => (s.startsWith('.') ? path.join(path.dirname(file), s) : s));
}

describe('module structure', () => {
  it('layers import only downwards: src/db nothing of the platform above it, src/app no kernel, no area, no REST table, no composition root', () => {
    const above = (dir: string) => (i: string) => [path.join('src', 'modules'), path.join('src', 'kernel'), 'rest-adapter', path.join('src', 'main'), path.join('src', 'cli')].some((up) => i.startsWith(up)) || (dir === 'src/db' && i.startsWith(path.join('src', 'app')));
    const offenders = ['src/app', 'src/db'].flatMap((dir) => sourceFiles(dir).flatMap((f) => importsOf(f).filter(above(dir)).map((i) => `${f} → ${i}`)));
    expect(offenders).toEqual([]);
  });

  it('no file outside a module schema (and the GraphQL infrastructure) imports graphql or Pothos', () => {
    // operation texts (fragments.ts) and running one in-process by its text (operation-runner.ts, the
    // MCP tools) need no GraphQL types, so any area may use them
    const textual = [path.join('src', 'app', 'graphql', 'fragments.ts'), path.join('src', 'app', 'graphql', 'operation-runner.ts')];
    const graphqlOnly = (i: string) =>
      i === 'graphql' || i.startsWith('@pothos/') || i === path.join('src', 'app', 'builder.ts') ||
      (i.startsWith(path.join('src', 'app', 'graphql')) && !textual.includes(i));
    const offenders = sourceFiles('src/modules')
      .filter((f) => !f.endsWith('.schema.ts'))
      .flatMap((f) => importsOf(f).filter(graphqlOnly).map((i) => `${f} → ${i}`));
    expect(offenders).toEqual([]);
  });

  it('resolvers call services: no Prisma, pool or SQL in *.schema.ts', () => {
    const offenders = sourceFiles('src/modules')
      .filter((f) => f.endsWith('.schema.ts'))
      .filter((f) => /services\.(prisma|pool)\b|\$queryRaw|\$executeRaw|\bSELECT\s/.test(fs.readFileSync(path.join(ROOT, f), 'utf8')));
    expect(offenders).toEqual([]);
  });

  it('the REST adapter never touches the database', () => {
    const offenders = sourceFiles('rest-adapter').flatMap((f) =>
      importsOf(f)
        .filter((i) => i.startsWith(path.join('src', 'db')) || i.startsWith(path.join('src', 'generated')) || i.endsWith('.service.ts') || i === 'pg')
        .map((i) => `${f} → ${i}`),
    );
    expect(offenders).toEqual([]);
  });

  it('every folder under src/modules is one registered module of the same name: a module.ts manifest and an index.ts public API', () => {
    const folders = fs.readdirSync(path.join(ROOT, 'src/modules')).sort();
    expect(modules.map((m) => m.name).sort()).toEqual(folders);
    for (const folder of folders) {
      expect(fs.existsSync(path.join(ROOT, 'src/modules', folder, 'module.ts')), `src/modules/${folder}/module.ts`).toBe(true);
      expect(fs.existsSync(path.join(ROOT, 'src/modules', folder, 'index.ts')), `src/modules/${folder}/index.ts`).toBe(true);
    }
  });

  it('an area imports another area, and the data kernel, only through its index.ts; the kernel imports no area', () => {
    const unitOf = (p: string): string | null => {
      const parts = p.split(path.sep);
      if (parts[0] !== 'src') return null;
      if (parts[1] === 'kernel') return 'src/kernel';
      if (parts[1] === 'modules' && parts[2]) return `src/modules/${parts[2]}`;
      return null;
    };
    const offenders = [...sourceFiles('src/modules'), ...sourceFiles('src/kernel')].flatMap((f) => {
      const own = unitOf(f)!;
      return importsOf(f)
        .filter((i) => {
          const target = unitOf(i);
          if (!target || target === own) return false;
          if (own === 'src/kernel') return true;
          return i !== path.join(target, 'index.ts');
        })
        .map((i) => `${f} → ${i}`);
    });
    expect(offenders, 'import the public API (index.ts) of the area instead; the kernel stays below every area').toEqual([]);
  });

  it('record storage belongs to the data kernel: no SQL or Prisma call on the DataRecord tables outside src/kernel', () => {
    const recordTables = /"DataRecord(Membership|CountDelta|Key)?"|\.dataRecord(Membership|CountDelta|Key)?\./;
    const offenders = [...sourceFiles('src/modules'), ...sourceFiles('rest-adapter')].filter((f) => recordTables.test(fs.readFileSync(path.join(ROOT, f), 'utf8')));
    expect(offenders, 'read and write records through src/kernel/index.ts (docs/architecture.md "The data kernel")').toEqual([]);
  });

  it('identifier prefixes are unique across the core and every module', () => {
    const prefixes = [...CORE_ID_PREFIXES, ...modules.flatMap((m) => (m.ids ?? []).map((k) => k.prefix))];
    expect(prefixes.length).toBeGreaterThan(CORE_ID_PREFIXES.length);
    expect(new Set(prefixes).size).toBe(prefixes.length);
  });
});
