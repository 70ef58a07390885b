// EMAIL_ADDRESS, PHONE_NUMBER and URL.
import { describe, expect, it } from 'vitest';
import { normalizeFilter } from '../../../src/kernel/values/index.ts';
import { accept, field, reject } from './helpers.ts';

describe('EMAIL_ADDRESS', () => {
  it.each([
    ['jane@example.com', 'jane@example.com'],
    ['Jane.Doe@Example.COM', 'Jane.Doe@example.com'],
    ['  spaced@example.com ', 'spaced@example.com'],
    ['user+tag@mail.example.co.uk', 'user+tag@mail.example.co.uk'],
    ["o'brien@example.ie", "o'brien@example.ie"],
    ['first_last-1@sub-domain.example.org', 'first_last-1@sub-domain.example.org'],
    ['josé@example.com', 'josé@example.com'],
    ['user@xn--bcher-kva.de', 'user@bücher.de'],
    ['user@Bücher.DE', 'user@bücher.de'],
    ['user@ｅｘａｍｐｌｅ.com', 'user@example.com'],
    ['user@example.xn--p1ai', 'user@example.рф'],
  ])('accepts %s as %s (domain lower-cased, Unicode form)', (raw, expected) => {
    expect(accept('EMAIL_ADDRESS', raw)).toBe(expected);
  });

  it('keeps the local part case, which belongs to the receiving server', () => {
    expect(accept('EMAIL_ADDRESS', 'MiXeD@EXAMPLE.com')).toBe('MiXeD@example.com');
  });

  it.each([
    'plainaddress',
    '@example.com',
    'user@',
    'user@@example.com',
    'a@b@example.com',
    'user@localhost',
    'user@example',
    'user@1.2.3.4',
    'user@[192.168.0.1]',
    '"quoted"@example.com',
    'user.@example.com',
    '.user@example.com',
    'us..er@example.com',
    'us er@example.com',
    'user@exa_mple.com',
    'user@-example.com',
    'user@example-.com',
    'user@example.com.',
    'user@exa mple.com',
    'user@example.c',
    `${'a'.repeat(65)}@example.com`,
    `user@${'a'.repeat(64)}.com`,
    'user@example.com\nBcc: victim@example.com',
    'user(comment)@example.com',
  ])('refuses %j', (raw) => {
    reject('EMAIL_ADDRESS', raw);
  });

  it('accepts the longest local part (64 bytes) and counts bytes, not characters', () => {
    expect(accept('EMAIL_ADDRESS', `${'a'.repeat(64)}@example.com`)).toBe(`${'a'.repeat(64)}@example.com`);
    expect(reject('EMAIL_ADDRESS', `${'é'.repeat(33)}@example.com`)).toMatch(/64 bytes/);
  });

  it('refuses non-strings; a blank string clears', () => {
    expect(reject('EMAIL_ADDRESS', 42)).toMatch(/email address string/);
    expect(accept('EMAIL_ADDRESS', '  ')).toBeNull();
  });

  it('filters compare case-insensitively on the normalized address', () => {
    expect(normalizeFilter(field('EMAIL_ADDRESS'), 'eq', ' Jane.Doe@EXAMPLE.com')).toEqual({ ok: true, operator: 'eq', value: 'jane.doe@example.com' });
    expect(normalizeFilter(field('EMAIL_ADDRESS'), 'contains', '@Example')).toEqual({ ok: true, operator: 'contains', value: '@example' });
    expect(normalizeFilter(field('EMAIL_ADDRESS'), 'eq', 'not-an-email')).toMatchObject({ ok: false, part: 'value' });
  });
});

describe('PHONE_NUMBER', () => {
  it.each([
    ['+1 (415) 555-2671', '+14155552671'],
    ['+14155552671', '+14155552671'],
    ['+44 20 7946 0958', '+442079460958'],
    ['+49 30 901820', '+4930901820'],
    ['+33 1 23 45 67 89', '+33123456789'],
    ['+81 3-1234-5678', '+81312345678'],
    [' +61 2 9374 4000 ', '+61293744000'],
  ])('normalizes %s to E.164 %s', (raw, expected) => {
    expect(accept('PHONE_NUMBER', raw)).toBe(expected);
  });

  it('reads national numbers with config.defaultCountry', () => {
    expect(accept('PHONE_NUMBER', '(415) 555-2671', { defaultCountry: 'US' })).toBe('+14155552671');
    expect(accept('PHONE_NUMBER', '020 7946 0958', { defaultCountry: 'GB' })).toBe('+442079460958');
    expect(accept('PHONE_NUMBER', '030 901820', { defaultCountry: 'de' })).toBe('+4930901820');
    // the default country does not override an explicit country code
    expect(accept('PHONE_NUMBER', '+44 20 7946 0958', { defaultCountry: 'US' })).toBe('+442079460958');
  });

  it('refuses a national number without a default country', () => {
    expect(reject('PHONE_NUMBER', '(415) 555-2671')).toMatch(/must start with \+ and the country code/);
  });

  it('refuses extensions instead of dropping them', () => {
    expect(reject('PHONE_NUMBER', '+1 415 555 2671 ext. 12')).toMatch(/extension/);
  });

  it.each(['+1 555 555 5555', '+999 123', '+1 415', '12345', 'call +1 415 555 2671 now', 'not a phone', '+'.padEnd(70, '1')])(
    'refuses the invalid number %j',
    (raw) => {
      expect(reject('PHONE_NUMBER', raw, { defaultCountry: 'US' })).toMatch(/phone number/);
    },
  );

  it('refuses JSON numbers, which lose the + and leading zeros', () => {
    expect(reject('PHONE_NUMBER', 14155552671)).toMatch(/JSON number/);
  });

  it('filters: eq normalizes like a write; contains/startsWith take digits', () => {
    const us = field('PHONE_NUMBER', { defaultCountry: 'US' });
    expect(normalizeFilter(us, 'eq', '(415) 555-2671')).toEqual({ ok: true, operator: 'eq', value: '+14155552671' });
    expect(normalizeFilter(us, 'in', ['+1 415 555 2671', '415.555.2671'])).toEqual({ ok: true, operator: 'in', value: ['+14155552671'] });
    expect(normalizeFilter(us, 'startsWith', '1 (415)')).toEqual({ ok: true, operator: 'startsWith', value: '+1415' });
    expect(normalizeFilter(us, 'startsWith', '+44')).toEqual({ ok: true, operator: 'startsWith', value: '+44' });
    expect(normalizeFilter(us, 'contains', '555-26')).toEqual({ ok: true, operator: 'contains', value: '55526' });
    expect(normalizeFilter(us, 'contains', 'abc')).toMatchObject({ ok: false, part: 'value' });
  });
});

describe('URL', () => {
  it.each([
    ['https://example.com', 'https://example.com/'],
    ['HTTP://WWW.Example.COM:80/a/./b/../c?q=1#frag', 'http://www.example.com/a/c?q=1#frag'],
    ['https://example.com:443/x', 'https://example.com/x'],
    ['https://example.com:8443/x', 'https://example.com:8443/x'],
    ['https://bücher.de/x', 'https://xn--bcher-kva.de/x'],
    ['https://example.com/ä?q=ü', 'https://example.com/%C3%A4?q=%C3%BC'],
    ['  https://example.com/trimmed  ', 'https://example.com/trimmed'],
    ['http://localhost:3000/dev', 'http://localhost:3000/dev'],
    ['https://192.168.0.1/', 'https://192.168.0.1/'],
    ['https://[::1]/', 'https://[::1]/'],
  ])('normalizes %s to %s', (raw, expected) => {
    expect(accept('URL', raw)).toBe(expected);
  });

  it.each([
    'javascript:alert(1)',
    'JAVASCRIPT:alert(1)',
    ' javascript:alert(1)',
    'javascript://example.com/%0Aalert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    'file:///etc/passwd',
    'ftp://example.com/file',
    'mailto:someone@example.com',
    'example.com',
    'www.example.com',
    '//example.com/x',
    'http:example.com',
    'http:/example.com',
    'http:\\\\example.com',
    'https://',
  ])('refuses %j: only absolute http(s) URLs', (raw) => {
    reject('URL', raw);
  });

  it('refuses credentials, spaces, control characters and overlong URLs', () => {
    expect(reject('URL', 'https://user:secret@example.com/')).toMatch(/user name or password/);
    expect(reject('URL', 'https://user@example.com/')).toMatch(/user name or password/);
    expect(reject('URL', 'https://exa mple.com/')).toMatch(/spaces/);
    expect(reject('URL', 'https://example.com/\u0000')).toMatch(/control/);
    expect(reject('URL', `https://example.com/${'a'.repeat(2030)}`)).toMatch(/2048/);
    expect(reject('URL', `https://example.com/${'ä'.repeat(500)}`)).toMatch(/once normalized/);
  });

  it('refuses non-strings', () => {
    expect(reject('URL', { href: 'https://example.com' })).toMatch(/URL string/);
  });

  it('filters compare case-insensitively on the normalized URL', () => {
    expect(normalizeFilter(field('URL'), 'eq', 'HTTPS://Example.com/Path')).toEqual({ ok: true, operator: 'eq', value: 'https://example.com/path' });
    expect(normalizeFilter(field('URL'), 'startsWith', 'https://EXAMPLE')).toEqual({ ok: true, operator: 'startsWith', value: 'https://example' });
  });
});
