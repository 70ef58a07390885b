// The merge-tag grammar: what is a tag and what stays literal text, on edge cases and hostile input.
import { describe, expect, it } from 'vitest';
import { hasTags, MAX_TAG_NAME_LENGTH, parseTemplate, tagsOf } from '../../src/modules/merge-tags/template.ts';

const shape = (text: string) => parseTemplate(text).tokens.map((t) => (t.type === 'text' ? t.text : `<${t.name}>`));

describe('parseTemplate', () => {
  it('splits text and tags; whitespace (also line breaks) inside the braces is ignored', () => {
    expect(shape('Hello {{first_name}}, {{ first_name }} and {{\n\tfld-AAAA-BBBB-CCCC \n}}!')).toEqual([
      'Hello ', '<first_name>', ', ', '<first_name>', ' and ', '<fld-AAAA-BBBB-CCCC>', '!',
    ]);
    expect(tagsOf('{{a}}{{b}}{{ a }}{{record.id}}')).toEqual(['a', 'b', 'record.id']);
    expect(parseTemplate('x {{ a }} y').tokens[1]).toEqual({ type: 'tag', name: 'a', raw: '{{ a }}' });
  });

  it('leaves malformed tags as literal text: empty, two words, unterminated, half-closed, nested', () => {
    for (const text of ['{{}}', '{{   }}', '{{ two words }}', 'Hi {{name', 'Hi {{name}', 'Hi {{name} }', '{name}', '{{a{{b}}c}}'.slice(0, 3)]) {
      expect(shape(text)).toEqual([text]);
      expect(hasTags(text)).toBe(false);
    }
    // a tag never contains another: the inner one is the tag, the rest is text
    expect(shape('{{a{{b}}c}}')).toEqual(['{{a', '<b>', 'c}}']);
    expect(shape('{{ a }')).toEqual(['{{ a }']);
  });

  it('reads triple braces as a literal brace around an ordinary tag (never an unescaped form)', () => {
    expect(shape('{{{name}}}')).toEqual(['{', '<name>', '}']);
    expect(shape('{{{{name}}}}')).toEqual(['{{', '<name>', '}}']);
    expect(shape('{{name}}}')).toEqual(['<name>', '}']);
  });

  it('limits names to 80 characters', () => {
    const ok = 'n'.repeat(MAX_TAG_NAME_LENGTH);
    expect(tagsOf(`{{${ok}}}`)).toEqual([ok]);
    expect(shape(`{{${ok}x}}`)).toEqual([`{{${ok}x}}`]);
  });

  it('treats prototype names as ordinary names', () => {
    expect(tagsOf('{{__proto__}}{{constructor}}{{toString}}{{hasOwnProperty}}')).toEqual(['__proto__', 'constructor', 'toString', 'hasOwnProperty']);
  });

  it('caches by text and hands out frozen results', () => {
    const text = `cached ${Math.random()} {{a}}`;
    const first = parseTemplate(text);
    expect(parseTemplate(text)).toBe(first);
    expect(Object.isFrozen(first.tokens)).toBe(true);
    expect(Object.isFrozen(first.tokens[1])).toBe(true);
    expect(() => (first.tokens as unknown[]).push('x')).toThrow();
  });

  it('stays linear on hostile texts: runs of braces, unterminated tags, long whitespace', () => {
    const hostile = [
      '{'.repeat(200_000),
      '{{'.repeat(100_000) + 'a',
      `{{${' '.repeat(200_000)}`,
      `{{ ${'x'.repeat(79)} `.repeat(2_000),
      '{{a}'.repeat(50_000),
    ];
    const started = performance.now();
    for (const text of hostile) expect(parseTemplate(text).tokens.map((t) => (t.type === 'text' ? t.text : '')).join('')).toBe(text);
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
