// The API documentation stands on its own: the index lists every page, relative links lead to files
// of the repository, and nothing cites documents the repository does not hold.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/svc-cli.ts';

const API_DOCS = path.join(ROOT, 'docs/api');
const INDEX = path.join(API_DOCS, 'README.md');
const pages = fs.readdirSync(API_DOCS).filter((name) => name.endsWith('.md') && name !== 'README.md');

function markdownFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(full);
    return entry.name.endsWith('.md') ? [full] : [];
  });
}

/** Relative link targets of a markdown file, without their #anchors. */
function relativeLinks(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8').replace(/^```[\s\S]*?^```$/gm, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1]!)
    .filter((target) => !/^[a-z]+:/i.test(target) && !target.startsWith('#'))
    .map((target) => target.split('#')[0]!);
}

describe('docs/api', () => {
  it('has an index that links every page, each with a summary', () => {
    const index = fs.readFileSync(INDEX, 'utf8');
    for (const page of pages) expect(index, page).toMatch(new RegExp(`^\\| \\[${page.replace('.', '\\.')}\\]\\(${page.replace('.', '\\.')}\\) \\| \\S.*\\|$`, 'm'));
  });

  it('links only to files that exist', () => {
    const broken: string[] = [];
    for (const file of [path.join(ROOT, 'README.md'), INDEX, ...pages.map((p) => path.join(API_DOCS, p))]) {
      for (const target of relativeLinks(file)) {
        if (target !== '' && !fs.existsSync(path.resolve(path.dirname(file), target))) broken.push(`${path.relative(ROOT, file)} → ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('cites no document outside the repository and no internal work item ("issue 12")', () => {
    const citations: string[] = [];
    for (const file of [path.join(ROOT, 'README.md'), ...markdownFiles(path.join(ROOT, 'docs'))]) {
      fs.readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (/Document [0-9]|§|the (interface |platform )?documents\b|\.\.\/shared\/|\b[Ii]ssues? #?[0-9]+/.test(line)) citations.push(`${path.relative(ROOT, file)}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(citations).toEqual([]);
  });
});
