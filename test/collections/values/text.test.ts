// PLAIN_TEXT and FORMATTED_TEXT: normalization, limits and HTML sanitizing.
import { describe, expect, it } from 'vitest';
import { htmlToText, toDisplayText } from '../../../src/kernel/values/index.ts';
import { accept, field, reject } from './helpers.ts';

describe('PLAIN_TEXT', () => {
  it('keeps text as written, spacing included', () => {
    expect(accept('PLAIN_TEXT', 'hello')).toBe('hello');
    expect(accept('PLAIN_TEXT', '  two  spaces ')).toBe('  two  spaces ');
    expect(accept('PLAIN_TEXT', 'a\tb')).toBe('a\tb');
  });

  it('normalizes line endings to LF and Unicode to NFC', () => {
    expect(accept('PLAIN_TEXT', 'a\r\nb\rc')).toBe('a\nb\nc');
    expect(accept('PLAIN_TEXT', 'e\u0301')).toBe('\u00e9');
  });

  it.each(['', '   ', '\n\t '])('treats blank %j as empty (clears)', (raw) => {
    expect(accept('PLAIN_TEXT', raw)).toBeNull();
  });

  it.each([42, true, {}, ['a']])('refuses the non-string %j', (raw) => {
    expect(reject('PLAIN_TEXT', raw)).toMatch(/must be a string/);
  });

  it.each(['nul\u0000here', 'bell\u0007', 'del\u007f', 'vt\u000b'])('refuses control characters in %j', (raw) => {
    expect(reject('PLAIN_TEXT', raw)).toMatch(/control characters/);
  });

  it('refuses lone surrogates, which cannot be stored as UTF-8', () => {
    expect(reject('PLAIN_TEXT', 'bad\ud800')).toMatch(/surrogate/);
  });

  it('limits length to 10 000 code points by default, counting emoji once', () => {
    expect(accept('PLAIN_TEXT', 'x'.repeat(10_000))).toHaveLength(10_000);
    expect(reject('PLAIN_TEXT', 'x'.repeat(10_001))).toMatch(/at most 10000/);
    expect(accept('PLAIN_TEXT', '😀'.repeat(10_000))).toHaveLength(20_000);
  });

  it('applies config.maxLength', () => {
    expect(accept('PLAIN_TEXT', 'abcde', { maxLength: 5 })).toBe('abcde');
    expect(reject('PLAIN_TEXT', 'abcdef', { maxLength: 5 })).toMatch(/at most 5/);
  });

  it('shows as one line in display text', () => {
    expect(toDisplayText(field('PLAIN_TEXT'), 'line one\n  line two')).toBe('line one line two');
  });
});

describe('FORMATTED_TEXT', () => {
  it('keeps allowed markup unchanged', () => {
    const html = '<h2>Title</h2><p>Hello <strong>world</strong>, <em>really</em></p><ul><li>one</li></ul>';
    expect(accept('FORMATTED_TEXT', html)).toBe(html);
  });

  it('strips scripts together with their content', () => {
    expect(accept('FORMATTED_TEXT', '<p>Hi<script>alert(1)</script></p>')).toBe('<p>Hi</p>');
    expect(accept('FORMATTED_TEXT', '<p>a</p><style>p{color:red}</style><noscript>n</noscript><iframe src="x">f</iframe>')).toBe('<p>a</p>');
  });

  it('strips event handlers, style and class attributes', () => {
    expect(accept('FORMATTED_TEXT', '<p onclick="steal()" style="position:fixed" class="x" id="y">text</p>')).toBe('<p>text</p>');
    expect(accept('FORMATTED_TEXT', '<p>ok<img src="x" onerror="alert(1)"></p>')).toBe('<p>ok</p>');
    expect(accept('FORMATTED_TEXT', '<p>ok<svg><script>alert(1)</script></svg></p>')).toBe('<p>ok</p>');
  });

  it.each([
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    'java&#x09;script:alert(1)',
    '&#106;avascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    '//evil.example/x',
  ])('drops the dangerous link target %s', (href) => {
    expect(accept('FORMATTED_TEXT', `<a href="${href}">x</a>`)).toBe('<a rel="noopener noreferrer nofollow">x</a>');
  });

  it('keeps http(s), mailto and tel links, always with a safe rel; target only _blank', () => {
    expect(accept('FORMATTED_TEXT', '<a href="https://example.com/?a=1&b=2" target="_blank" rel="opener">x</a>')).toBe(
      '<a href="https://example.com/?a=1&amp;b=2" target="_blank" rel="noopener noreferrer nofollow">x</a>',
    );
    expect(accept('FORMATTED_TEXT', '<a href="mailto:a@example.com" target="_top">m</a>')).toBe(
      '<a href="mailto:a@example.com" rel="noopener noreferrer nofollow">m</a>',
    );
    expect(accept('FORMATTED_TEXT', '<a href="tel:+14155552671">t</a>')).toContain('href="tel:+14155552671"');
  });

  it('keeps table spans and list start, drops other attributes', () => {
    expect(accept('FORMATTED_TEXT', '<table><tr><td colspan="2" bgcolor="red">c</td></tr></table><ol start="3" type="a"><li>x</li></ol>')).toBe(
      '<table><tr><td colspan="2">c</td></tr></table><ol start="3"><li>x</li></ol>',
    );
  });

  it('closes unclosed tags and drops comments', () => {
    expect(accept('FORMATTED_TEXT', '<!-- secret --><p>unclosed <b>bold')).toBe('<p>unclosed <b>bold</b></p>');
  });

  it('escapes text that looks like markup', () => {
    expect(accept('FORMATTED_TEXT', '1 &lt; 2 &amp; 3 > 2')).toBe('1 &lt; 2 &amp; 3 &gt; 2');
  });

  it.each(['', '<p></p>', '<p><br></p>', '<script>alert(1)</script>', '  <p>   </p> '])('treats %j as empty (clears)', (raw) => {
    expect(accept('FORMATTED_TEXT', raw)).toBeNull();
  });

  it('refuses non-strings and control characters', () => {
    expect(reject('FORMATTED_TEXT', { html: '<p>x</p>' })).toMatch(/HTML string/);
    expect(reject('FORMATTED_TEXT', '<p>a\u0000</p>')).toMatch(/control/);
  });

  it('limits the sanitized length (config.maxLength, default 100 000)', () => {
    expect(reject('FORMATTED_TEXT', `<p>${'x'.repeat(30)}</p>`, { maxLength: 20 })).toMatch(/at most 20/);
    expect(accept('FORMATTED_TEXT', `<p>${'x'.repeat(13)}</p>`, { maxLength: 20 })).toBe(`<p>${'x'.repeat(13)}</p>`);
    // markup that is stripped does not count against the stored length...
    expect(accept('FORMATTED_TEXT', `<p style="${'a'.repeat(20)}">x</p>`, { maxLength: 20 })).toBe('<p>x</p>');
    // ...but a raw input far beyond the limit is refused before parsing
    expect(reject('FORMATTED_TEXT', `<p>${' '.repeat(50)}x</p>`, { maxLength: 20 })).toMatch(/at most 20/);
    expect(reject('FORMATTED_TEXT', 'x'.repeat(100_001))).toMatch(/at most 100000/);
  });

  it('projects to plain text for display and search', () => {
    expect(htmlToText('<p>a &amp; b</p><p>c&lt;d&gt;e "q"</p><ul><li>one</li><li>two</li></ul>x<br>y')).toBe('a & b c<d>e "q" one two x y');
    expect(htmlToText('<p>&amp;lt;</p>')).toBe('&lt;');
    expect(toDisplayText(field('FORMATTED_TEXT'), '<h1>Title</h1><p>Body <b>bold</b></p>')).toBe('Title Body bold');
  });
});
