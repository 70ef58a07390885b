// Rendering for one record: missing → empty, HTML escaping, display text of every kind of value,
// prototype names, the output bound and a loose speed check.
import { describe, expect, it } from 'vitest';
import { encodeValue } from '../../src/kernel/values/index.ts';
import { ApiError } from '../../src/app/errors.ts';
import { MergeOutputTooLargeError } from '../../src/modules/merge-tags/merge-tags.errors.ts';
import { type MergeField, type MergeRecord, renderTemplate, textsAroundTags, unknownTags } from '../../src/modules/merge-tags/render.ts';

let n = 0;
function field(columnName: string, dataType: string, config: Record<string, unknown> = {}): MergeField {
  n += 1;
  return { dataFieldSimplyId: `fld-TEST-0000-${String(n).padStart(4, '0')}`, columnName, dataType, config };
}

const fields = [
  field('first_name', 'PLAIN_TEXT'),
  field('nickname', 'PLAIN_TEXT'),
  field('age', 'NUMBER'),
  field('fee', 'MONEY', { currency: 'EUR' }),
  field('born', 'DATE'),
  field('active', 'BOOLEAN'),
  field('home', 'PHYSICAL_ADDRESS'),
  field('friends', 'MULTI_DATA_RECORD'),
  field('bio', 'FORMATTED_TEXT'),
];
const byColumn = Object.fromEntries(fields.map((f) => [f.columnName, f]));

function recordOf(raw: Record<string, unknown>): MergeRecord {
  const values: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(raw)) {
    const result = encodeValue(byColumn[column]!, value);
    if (!result.ok) throw new Error(`${column}: ${result.message}`);
    values[byColumn[column]!.dataFieldSimplyId] = result.value;
  }
  return { simplyId: 'rec-AAAA-BBBB-CCCC', calculatedName: 'Ada <Lovelace>', values };
}

const ada = recordOf({
  first_name: 'Ada & "Co" <b>',
  age: 36,
  fee: '12.5',
  born: '1815-12-10',
  active: true,
  home: { line1: '12 St James’s Sq', city: 'London', countryCode: 'GB' },
  friends: ['AAAA-BBBB-CCCC', 'DDDD-EEEE-FFFF'],
  bio: '<p>Wrote <b>notes</b></p><p>on the engine</p>',
});

describe('renderTemplate', () => {
  it('fills tags by column name, field simplyId and the built-ins, as one-line display text', () => {
    const template = '{{first_name}}|{{ ' + byColumn.first_name!.dataFieldSimplyId + ' }}|{{age}}|{{fee}}|{{born}}|{{active}}|{{home}}|{{friends}}|{{bio}}|{{record.id}}|{{record.name}}';
    expect(renderTemplate(template, { fields, record: ada })).toBe(
      'Ada & "Co" <b>|Ada & "Co" <b>|36|12.50 EUR|1815-12-10|true|12 St James’s Sq, London, GB|AAAA-BBBB-CCCC, DDDD-EEEE-FFFF|Wrote notes on the engine|rec-AAAA-BBBB-CCCC|Ada <Lovelace>',
    );
  });

  it('renders a missing value, an unknown tag and every tag without a record as empty', () => {
    expect(renderTemplate('Hi {{nickname}}!', { fields, record: ada })).toBe('Hi !');
    expect(renderTemplate('Hi {{no_such_field}}{{fld-ZZZZ-ZZZZ-ZZZZ}}!', { fields, record: ada })).toBe('Hi !');
    expect(renderTemplate('Hi {{first_name}} {{record.id}}!', { fields, record: null })).toBe('Hi  !');
    expect(renderTemplate('Hi {{first_name}}', { fields, record: { simplyId: 'rec-1', calculatedName: null, values: null } })).toBe('Hi ');
    expect(renderTemplate('{{record.name}}', { fields: [], record: { simplyId: 'rec-1', calculatedName: null, values: {} } })).toBe('');
  });

  it('escapes values in HTML (text and quoted attributes) but never the template’s own markup', () => {
    const html = renderTemplate('<p title="{{first_name}}" data-x=\'{{first_name}}\'>{{first_name}} — {{record.name}}</p>', { fields, record: ada }, { html: true });
    expect(html).toBe(
      '<p title="Ada &amp; &quot;Co&quot; &lt;b&gt;" data-x=\'Ada &amp; &quot;Co&quot; &lt;b&gt;\'>Ada &amp; &quot;Co&quot; &lt;b&gt; — Ada &lt;Lovelace&gt;</p>',
    );
    expect(renderTemplate('{{first_name}}', { fields, record: ada })).toBe('Ada & "Co" <b>');
    // a value that looks like a tag is not rendered again
    const sneaky = recordOf({ first_name: '{{record.id}} {{{first_name}}}' });
    expect(renderTemplate('{{first_name}}', { fields, record: sneaky })).toBe('{{record.id}} {{{first_name}}}');
  });

  it('keeps line breaks of the template; values are one line in plain text and HTML alike', () => {
    const multi = recordOf({ first_name: 'line one\nline two' });
    expect(renderTemplate('Dear\n{{first_name}}\n', { fields, record: multi })).toBe('Dear\nline one line two\n');
    expect(renderTemplate('<p>{{first_name}}</p>', { fields, record: multi }, { html: true })).toBe('<p>line one line two</p>');
  });

  it('never reaches Object.prototype: prototype names render empty unless a field really has that column name', () => {
    const record: MergeRecord = { simplyId: 'rec-1', calculatedName: 'x', values: Object.assign(Object.create({ inherited: 'leak' }), {}) };
    const template = '[{{__proto__}}][{{constructor}}][{{toString}}][{{hasOwnProperty}}][{{valueOf}}][{{record.constructor}}][{{inherited}}]';
    expect(renderTemplate(template, { fields, record: ada })).toBe('[][][][][][][]');
    expect(renderTemplate(template, { fields, record })).toBe('[][][][][][][]');
    const odd = [field('constructor', 'PLAIN_TEXT'), field('inherited', 'PLAIN_TEXT')];
    // a field whose id is an inherited property name would still find nothing inherited
    const values = Object.create({ [odd[1]!.dataFieldSimplyId]: 'leak' }) as Record<string, unknown>;
    values[odd[0]!.dataFieldSimplyId] = 'built';
    expect(renderTemplate('{{constructor}}/{{inherited}}/{{toString}}', { fields: odd, record: { simplyId: 'r', calculatedName: null, values } })).toBe('built//');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses to build output over its bound (many tags with long values), with a typed error', () => {
    const long = recordOf({ first_name: 'x'.repeat(10_000) });
    const template = '{{first_name}}'.repeat(200);
    expect(renderTemplate(template, { fields, record: long }, { maxLength: 2_000_000 })).toHaveLength(2_000_000);
    let error: unknown;
    try {
      renderTemplate(template, { fields, record: long }, { maxLength: 1_999_999 });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(MergeOutputTooLargeError);
    expect(error).toMatchObject({ code: 'VALIDATION_ERROR', status: 400 });
    expect(error).toBeInstanceOf(ApiError);
    // the default bound
    expect(() => renderTemplate(template, { fields, record: long })).toThrow(MergeOutputTooLargeError);
  });

  it('renders a 100 KB template with 1,000 tags for one record well under 50 ms', () => {
    const names = ['first_name', 'age', 'fee', 'born', 'home', 'record.name', 'nickname', 'unknown_one'];
    const filler = 'lorem ipsum dolor sit amet, '.repeat(3);
    let template = '';
    for (let i = 0; i < 1_000; i++) template += `${filler}{{ ${names[i % names.length]} }}`;
    template += 'z'.repeat(Math.max(0, 100_000 - template.length));
    expect(template.length).toBeGreaterThanOrEqual(100_000);
    renderTemplate(template, { fields, record: ada }, { html: true }); // warm-up (parse cache, JIT)
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      // a fresh copy of the text each time also measures parsing, not only the cache hit
      const out = renderTemplate(`${i}${template}`, { fields, record: ada }, { html: true });
      times.push(performance.now() - started);
      expect(out).toContain('Ada &amp; &quot;Co&quot; &lt;b&gt;');
    }
    expect(Math.min(...times)).toBeLessThan(50);
  });
});

describe('unknownTags', () => {
  it('names tags that match no field or built-in; every tag when there are no fields', () => {
    const text = 'Hi {{first_name}} {{ ' + byColumn.age!.dataFieldSimplyId + ' }} {{record.id}} {{nope}} {{__proto__}} {{nope}} {{{x}}}';
    expect(unknownTags(text, fields)).toEqual(['nope', '__proto__', 'x']);
    expect(unknownTags(text, null)).toEqual(['first_name', byColumn.age!.dataFieldSimplyId, 'record.id', 'nope', '__proto__', 'x']);
    expect(unknownTags('no tags {{ two words }}', fields)).toEqual([]);
  });
});

describe('caller-filled values', () => {
  const values = new Map([['unsubscribe_url', 'https://x.example/u?a=1&b="2"']]);
  it('fill their tags ahead of a field of the same name, escaped in HTML, also without a record', () => {
    const shadow = [...fields, field('unsubscribe_url', 'PLAIN_TEXT')];
    const record = { ...ada, values: { ...ada.values, [shadow.at(-1)!.dataFieldSimplyId]: 'from the record' } };
    expect(renderTemplate('<a href="{{unsubscribe_url}}">{{first_name}}</a>', { fields: shadow, record, values }, { html: true })).toBe(
      '<a href="https://x.example/u?a=1&amp;b=&quot;2&quot;">Ada &amp; &quot;Co&quot; &lt;b&gt;</a>',
    );
    expect(renderTemplate('Leave: {{ unsubscribe_url }} {{first_name}}', { fields, record: null, values })).toBe('Leave: https://x.example/u?a=1&b="2" ');
    expect(renderTemplate('{{unsubscribe_url}}', { fields: shadow, record })).toBe('from the record');
  });

  it('textsAroundTags cuts a text at the named tags, so checking the pieces skips them and forms no new tag', () => {
    expect(unknownTags('{{first_name}} {{unsubscribe_url}} {{nope}}', fields)).toEqual(['unsubscribe_url', 'nope']);
    expect(textsAroundTags('{{first_name}} {{unsubscribe_url}} {{nope}}', ['unsubscribe_url']).flatMap((piece) => unknownTags(piece, fields))).toEqual(['nope']);
    expect(textsAroundTags('no tag here {{first_name}}', ['unsubscribe_url'])).toEqual(['no tag here {{first_name}}']);
    expect(textsAroundTags('a {{x}} {{unsubscribe_url}} b {{ unsubscribe_url }}', ['unsubscribe_url'])).toEqual(['a {{x}} ', ' b ']);
    // joined again, `{{` + `x}}` would read as the tag x
    const pieces = textsAroundTags('{{{{unsubscribe_url}}x}}', ['unsubscribe_url']);
    expect(pieces).toEqual(['{{', 'x}}']);
    expect(pieces.flatMap((piece) => unknownTags(piece, fields))).toEqual([]);
  });
});
