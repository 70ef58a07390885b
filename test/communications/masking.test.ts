// Credential masking before a protected snapshot is stored: named secrets in every form they take
// (plain, URL-encoded, HTML-escaped), and credentials recognised by shape (token parameters,
// signed download URLs, one-click unsubscribe and magic-link paths, URL passwords, JWTs, the
// platform's own keys), with hostile samples; ordinary content stays as it was.
import { describe, expect, it } from 'vitest';
import { MASK, maskCredentials } from '../../src/modules/communications/masking.ts';

const masked = (text: string, secrets: string[] = []) => maskCredentials(text, secrets);

describe('maskCredentials', () => {
  it('masks a named code wherever it appears, and says so', () => {
    const out = masked('Your code is 493027. Enter 493027 within 15 minutes.', ['493027']);
    expect(out).toEqual({ text: `Your code is ${MASK}. Enter ${MASK} within 15 minutes.`, masked: true });
  });

  it('masks a named link in text, URL-encoded, and HTML-escaped (&amp;, &#38;)', () => {
    const link = 'https://app.example.test/verify?a=1&b="x"&c=<y>';
    const text = [
      `plain ${link}`,
      `escaped <a href="${link.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('>', '&gt;')}">go</a>`,
      `numeric ${link.replaceAll('&', '&#38;')}`,
      `encoded https://redirect.example.test/?next=${encodeURIComponent(link)}`,
    ].join('\n');
    const out = masked(text, [link]);
    expect(out.masked).toBe(true);
    expect(out.text).not.toContain('verify?a=1');
    expect(out.text).not.toContain(encodeURIComponent(link));
    expect(out.text.split(MASK)).toHaveLength(5);
  });

  it('ignores "secrets" shorter than 4 characters (they would mask ordinary words)', () => {
    expect(masked('a b c 12', ['12', 'a'])).toEqual({ text: 'a b c 12', masked: false });
  });

  it('masks credential query and fragment parameters, in text and in HTML', () => {
    const samples: [string, string][] = [
      ['https://x.test/login?token=abc.DEF-123', `https://x.test/login?token=${MASK}`],
      ['https://x.test/p?id=7&access_token=eyJhbGc', `https://x.test/p?id=7&access_token=${MASK}`],
      ['<a href="https://x.test/p?id=7&amp;reset_token=s3cr3t">', `<a href="https://x.test/p?id=7&amp;reset_token=${MASK}">`],
      ['https://x.test/p?id=7&#38;code=991122', `https://x.test/p?id=7&#38;code=${MASK}`],
      ['https://x.test/cb#access_token=zzz&state=1', `https://x.test/cb#access_token=${MASK}&state=1`],
      ['https://x.test/a?ApiKey=K1&API_KEY=K2', `https://x.test/a?ApiKey=${MASK}&API_KEY=${MASK}`],
      ['https://x.test/u?U=abcdef&id=3', `https://x.test/u?U=${MASK}&id=3`],
      ['https://x.test/a?invite_code=x1&otp=123456&password=hunter2', `https://x.test/a?invite_code=${MASK}&otp=${MASK}&password=${MASK}`],
    ];
    for (const [input, expected] of samples) expect(masked(input), input).toEqual({ text: expected, masked: true });
  });

  it('masks signed download URLs (S3, GCS, Azure, CloudFront, the platform’s own)', () => {
    const s3 =
      'https://bucket.s3.amazonaws.com/f.pdf?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIA%2F20261124%2Fus-east-1&X-Amz-Date=20261124T000000Z&X-Amz-Expires=900&X-Amz-Security-Token=FQoG&X-Amz-Signature=0f1e2d';
    const out = masked(`Download: ${s3}`).text;
    expect(out).not.toMatch(/AKIA|FQoG|0f1e2d/);
    expect(out).toContain('X-Amz-Algorithm=AWS4-HMAC-SHA256');
    expect(masked('https://storage.googleapis.com/b/o?X-Goog-Signature=abcd&X-Goog-Credential=svc%40p').text).not.toMatch(/abcd|svc%40p/);
    expect(masked('https://acct.blob.core.windows.net/c/b?sv=2024&sig=Zm9vYmFy%3D').text).not.toContain('Zm9vYmFy');
    expect(masked('https://d1.cloudfront.net/v.mp4?Expires=1&Signature=Ab~Cd&Key-Pair-Id=K').text).not.toContain('Ab~Cd');
    expect(masked('https://svc.example.test/storage/download/f.txt?exp=1&sig=aGVsbG8').text).not.toContain('aGVsbG8');
  });

  it('masks credentials carried in the path: unsubscribe, magic links, resets, random tokens', () => {
    const tokens = ['Q2hhbmdlTWUhMTIzNDU2Nzg5MA', 'a'.repeat(8) + '0123456789abcdef0123456789abcdef'];
    const samples = [
      `https://x.test/unsubscribe/${tokens[0]}`,
      `https://x.test/u/${tokens[0]}?x=1`,
      `https://x.test/magic-link/${tokens[0]}`,
      `https://x.test/reset-password/${tokens[0]}`,
      `https://x.test/mail/${tokens[0]}/open`,
      `https://x.test/files/${tokens[1]}`,
    ];
    for (const sample of samples) {
      const out = masked(`<a href="${sample}">link</a>`);
      expect(out.masked, sample).toBe(true);
      expect(out.text, sample).not.toMatch(new RegExp(tokens.join('|')));
    }
  });

  it('masks URL passwords, JWTs and the platform’s own keys anywhere', () => {
    const jwt = 'eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiJ1c3ItMTIzIn0.c2lnbmF0dXJlLWJ5dGVz';
    const key = 'svc_live_' + 'Ab3'.repeat(14) + 'x';
    const out = masked(`ftp-ish https://admin:pa55w0rd@db.example.test/x token ${jwt} key ${key} session svc_sess_${'Zz9'.repeat(14)}z`);
    expect(out.text).toBe(`ftp-ish https://admin:${MASK}@db.example.test/x token ${MASK} key ${MASK} session ${MASK}`);
    expect(out.masked).toBe(true);
  });

  it('leaves ordinary content alone: words, slugs, short ids, plain parameters', () => {
    const ordinary = [
      'Hello Ada, your appointment is on 2026-11-24 at 10:00. Call 0123456789.',
      'https://blog.example.test/2026/11/24/announcing-the-autumn-product-launch-event',
      'https://x.test/data-records/ABCD-EFGH-JKLM?page=2&sort=name&utm_source=mail',
      '<p style="color:#333">Design &amp; signage</p>',
    ];
    for (const text of ordinary) expect(masked(text), text).toEqual({ text, masked: false });
  });

  it('survives hostile input: huge, nested and pathological strings, in bounded time', () => {
    const started = Date.now();
    const hostile = [
      'https://x.test/' + 'a/'.repeat(50_000),
      '?token=' + '&'.repeat(100_000),
      'https://' + 'x'.repeat(200_000),
      ('https://x.test/?token=' + 'y'.repeat(1000) + '&').repeat(200),
      '&amp;'.repeat(50_000) + 'code=1',
    ];
    for (const text of hostile) expect(typeof masked(text, ['yyyy']).text).toBe('string');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(masked('?token=' + 'y'.repeat(1000)).text).toBe(`?token=${MASK}`);
  });
});
