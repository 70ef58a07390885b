// The README's runnable examples: the sh blocks between `<!-- readme-examples:start` and
// `<!-- readme-examples:end -->`, cut into shell commands, each with the output sample documented
// under it (`# → …`, continued on `#   …` lines), and a check of an output against its sample.

export interface ReadmeCommand {
  /** the command as written (continuation lines and multi-line quotes included) */
  text: string;
  /** the sample output documented under it, verbatim, `# → ` and `#   ` prefixes removed */
  sample?: string;
  /** shell variables the command assigns (`NAME=$(…)` or `NAME=$…`) */
  assigns: string[];
}

const START = '<!-- readme-examples:start';
const END = '<!-- readme-examples:end -->';

/** The sh blocks of the marked part of `markdown`, in order. */
export function readmeShellBlocks(markdown: string): string[] {
  const from = markdown.indexOf(START);
  const to = markdown.indexOf(END);
  if (from < 0 || to < from) throw new Error(`the README has no ${START} … ${END} part`);
  const part = markdown.slice(from, to);
  return [...part.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
}

/** The commands of the blocks: a command ends at a line end outside quotes and not after a `\`. */
export function readmeCommands(blocks: readonly string[]): ReadmeCommand[] {
  const commands: ReadmeCommand[] = [];
  for (const block of blocks) {
    let pending = '';
    let inSample = false;
    for (const line of block.split('\n')) {
      if (pending === '') {
        const sampleStart = /^# → (.*)$/.exec(line);
        const sampleMore = /^# {3}(.*)$/.exec(line);
        const last = commands.at(-1);
        if (sampleStart && last) {
          last.sample = sampleStart[1]!;
          inSample = true;
          continue;
        }
        if (sampleMore && inSample && last) {
          last.sample += sampleMore[1]!;
          continue;
        }
        inSample = false;
        if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
      }
      pending = pending === '' ? line : `${pending}\n${line}`;
      if (!continues(pending)) {
        commands.push({ text: pending, assigns: [...pending.matchAll(/(?:^|[\s;])([A-Z_][A-Z0-9_]*)=\$/g)].map((m) => m[1]!) });
        pending = '';
      }
    }
    if (pending !== '') throw new Error(`unfinished command at the end of a README block:\n${pending}`);
  }
  return commands;
}

/** Whether `text` needs more lines: an open quote, or a `\` at its end. */
function continues(text: string): boolean {
  let quote: "'" | '"' | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote === "'") {
      if (c === "'") quote = null;
    } else if (c === '\\') {
      if (i === text.length - 1) return true;
      i++;
    } else if (quote === '"') {
      if (c === '"') quote = null;
    } else if (c === "'" || c === '"') {
      quote = c;
    } else if (c === '#' && (i === 0 || /\s/.test(text[i - 1]!))) {
      const eol = text.indexOf('\n', i);
      if (eol < 0) return false;
      i = eol;
    }
  }
  return quote !== null;
}

/**
 * A sample as a value: JSON in which `…` stands for what varies. A bare `…` after the last member
 * of an object or array means "and more"; `{…}` is any object; inside a string, `…` stands for any
 * text (`"tm-…"` is any string starting with `tm-`). `[]` is an empty array.
 */
export function parseSample(sample: string): unknown {
  const json = sample.replace(/,\s*…(?=\s*[}\]])/g, '').replace(/\{\s*…\s*\}/g, '{}');
  return JSON.parse(json);
}

/** Where `actual` differs from `sample` (empty: it matches). Members the sample does not name are free. */
export function sampleMismatches(actual: unknown, sample: unknown, at = '$'): string[] {
  if (typeof sample === 'string') {
    if (typeof actual !== 'string') return [`${at}: a string like ${JSON.stringify(sample)}, got ${JSON.stringify(actual)}`];
    return textMatches(actual, sample) ? [] : [`${at}: ${JSON.stringify(actual)} is not like ${JSON.stringify(sample)}`];
  }
  if (Array.isArray(sample)) {
    if (!Array.isArray(actual)) return [`${at}: an array, got ${JSON.stringify(actual)}`];
    if (sample.length === 0) return actual.length === 0 ? [] : [`${at}: an empty array, got ${actual.length} items`];
    if (actual.length < sample.length) return [`${at}: at least ${sample.length} items, got ${actual.length}`];
    return sample.flatMap((item, i) => sampleMismatches(actual[i], item, `${at}[${i}]`));
  }
  if (sample !== null && typeof sample === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return [`${at}: an object, got ${JSON.stringify(actual)}`];
    return Object.entries(sample).flatMap(([key, value]) =>
      key in actual ? sampleMismatches((actual as Record<string, unknown>)[key], value, `${at}.${key}`) : [`${at}.${key}: missing`],
    );
  }
  return actual === sample ? [] : [`${at}: ${JSON.stringify(sample)}, got ${JSON.stringify(actual)}`];
}

function textMatches(actual: string, sample: string): boolean {
  const parts = sample.split('…');
  if (parts.length === 1) return actual === sample;
  const first = parts[0]!;
  const last = parts.at(-1)!;
  if (!actual.startsWith(first) || !actual.endsWith(last) || actual.length < first.length + last.length) return false;
  let from = first.length;
  for (const middle of parts.slice(1, -1)) {
    const found = actual.indexOf(middle, from);
    if (found < 0 || found + middle.length > actual.length - last.length) return false;
    from = found + middle.length;
  }
  return true;
}
