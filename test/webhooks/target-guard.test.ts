// The address policy of webhook targets (target-guard.ts): only public unicast passes, hostnames
// are judged by every address they resolve to, and the connection's lookup only answers with
// addresses that were checked. At creation, a public name that does not resolve yet is accepted
// with a warning; what is provably not public is refused.
import { describe, expect, it } from 'vitest';
import { checkTargetAtCreation, parseTargetUrl, pinnedLookup, refusedRange, resolveTarget, TargetRefused, type Lookup } from '../../src/modules/webhooks/target-guard.ts';

describe('refusedRange', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['::ffff:192.168.1.1', 'private'],
    ['::ffff:c0a8:101', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['fe80::1', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['100.127.255.254', 'carrierGradeNat'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['::', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['ff02::1', 'multicast'],
    ['192.0.2.10', 'reserved'],
    ['198.51.100.7', 'reserved'],
    ['203.0.113.200', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['240.0.0.1', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['fc00::1', 'uniqueLocal'],
    ['fd12:3456::1', 'uniqueLocal'],
    ['64:ff9b::a00:1', 'rfc6052'],
    ['2002:a00:1::', '6to4'],
    ['2001::1', 'teredo'],
    ['::a00:1', 'reserved'],
    ['not-an-ip', 'invalid'],
  ])('%s is refused (%s)', (address, range) => {
    expect(refusedRange(address, false)).toBe(range);
  });

  it.each(['1.1.1.1', '8.8.8.8', '93.184.216.34', '100.128.0.1', '172.32.0.1', '::ffff:8.8.8.8', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e'])(
    '%s is public',
    (address) => expect(refusedRange(address, false)).toBeNull(),
  );

  it('the loopback opt-in allows loopback only', () => {
    for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) expect(refusedRange(address, true)).toBeNull();
    for (const address of ['10.0.0.1', '169.254.169.254', '0.0.0.0', '::', 'fd00::1', '100.64.0.1']) expect(refusedRange(address, true)).not.toBeNull();
  });
});

describe('parseTargetUrl', () => {
  it.each([
    ['http://example.com/hook', /https/],
    ['ftp://example.com/', /https/],
    ['example.com/hook', /absolute/],
    ['https://user:pass@example.com/', /credentials/],
    ['https://example.com/#frag', /fragment/],
    [`https://example.com/${'a'.repeat(2050)}`, /2048/],
  ])('%s is refused', (raw, message) => {
    expect(() => parseTargetUrl(raw)).toThrow(message);
  });

  it('accepts https URLs with a port, path and query', () => {
    expect(parseTargetUrl('https://hooks.example.com:8443/in?x=1').toString()).toBe('https://hooks.example.com:8443/in?x=1');
  });
});

describe('resolveTarget', () => {
  const lookupOf = (answers: Record<string, string[]>): Lookup => async (host) => {
    const list = answers[host];
    if (!list) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  const policy = (answers: Record<string, string[]>, allowLoopback = false) => ({ allowLoopback, lookup: lookupOf(answers) });

  it('returns every address of a public host', async () => {
    const answers = { 'hooks.example.com': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'] };
    expect(await resolveTarget(new URL('https://hooks.example.com/x'), policy(answers))).toEqual([
      { address: '93.184.216.34', family: 4 },
      { address: '2606:2800:220:1:248:1893:25c8:1946', family: 6 },
    ]);
  });

  it('refuses a host when any one of its addresses is not public', async () => {
    const answers = { 'mixed.example.com': ['93.184.216.34', '10.0.0.5'] };
    await expect(resolveTarget(new URL('https://mixed.example.com/'), policy(answers))).rejects.toThrow(/mixed\.example\.com resolves to 10\.0\.0\.5.*private/);
  });

  it('refuses internal names by what they resolve to, and names that do not resolve', async () => {
    const answers = { 'metadata.google.internal': ['169.254.169.254'], localhost: ['127.0.0.1', '::1'] };
    await expect(resolveTarget(new URL('https://metadata.google.internal/'), policy(answers))).rejects.toThrow(/linkLocal/);
    await expect(resolveTarget(new URL('https://localhost:9/'), policy(answers))).rejects.toThrow(/loopback/);
    await expect(resolveTarget(new URL('https://nowhere.invalid/'), policy(answers))).rejects.toThrow(/could not be resolved \(ENOTFOUND\)/);
    await expect(resolveTarget(new URL('https://localhost:9/'), policy(answers, true))).resolves.toHaveLength(2);
  });

  it('checks IP literals without DNS, IPv6 in brackets included', async () => {
    const none = policy({});
    await expect(resolveTarget(new URL('https://[::1]/'), none)).rejects.toBeInstanceOf(TargetRefused);
    await expect(resolveTarget(new URL('https://[::ffff:10.0.0.1]/'), none)).rejects.toThrow(/private/);
    await expect(resolveTarget(new URL('https://0.0.0.0/'), none)).rejects.toThrow(/unspecified/);
    // WHATWG URL parsing normalizes decimal and hex IPv4 spellings before the check
    await expect(resolveTarget(new URL('https://2130706433/'), none)).rejects.toThrow(/loopback/);
    await expect(resolveTarget(new URL('https://0x7f.1/'), none)).rejects.toThrow(/loopback/);
    await expect(resolveTarget(new URL('https://[2606:4700:4700::1111]/'), none)).resolves.toEqual([{ address: '2606:4700:4700::1111', family: 6 }]);
  });
});

describe('checkTargetAtCreation', () => {
  const lookupOf = (answers: Record<string, string[]>, slow: string[] = []): Lookup => async (host) => {
    if (slow.includes(host)) return new Promise(() => {});
    const list = answers[host];
    if (!list) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  const check = (url: string, answers: Record<string, string[]> = {}, options: { allowLoopback?: boolean; slow?: string[] } = {}) =>
    checkTargetAtCreation(new URL(url), { allowLoopback: options.allowLoopback ?? false, lookup: lookupOf(answers, options.slow), timeoutMs: 200 });

  it('accepts a public host without a warning', async () => {
    expect(await check('https://hooks.example.com/in', { 'hooks.example.com': ['93.184.216.34'] })).toBeNull();
  });

  it('accepts a well-formed public name that does not resolve (yet) or whose DNS is too slow, with a warning', async () => {
    expect(await check('https://hooks.not-yet-there.com/in')).toMatch(/^targetUrl: host hooks\.not-yet-there\.com could not be resolved \(ENOTFOUND\); the subscription is kept/);
    expect(await check('https://slow.example.com/in', {}, { slow: ['slow.example.com'] })).toMatch(/could not be resolved \(ETIMEOUT\)/);
  });

  it('refuses what is provably not public: literal addresses, names that are never public, names resolving to private ranges', async () => {
    await expect(check('https://10.0.0.1/')).rejects.toThrow(/private/);
    await expect(check('https://[fd00::1]/')).rejects.toThrow(/uniqueLocal/);
    await expect(check('https://internal.example.com/', { 'internal.example.com': ['10.1.2.3'] })).rejects.toThrow(/private/);
    for (const host of ['printer.local', 'metadata.google.internal', 'router.home.arpa', 'nothing.invalid', 'svc.test', 'api.example']) {
      await expect(check(`https://${host}/`), host).rejects.toThrow(/never public/);
    }
    await expect(check('https://intranet/')).rejects.toThrow(/fully qualified/);
    await expect(check('https://localhost:9/')).rejects.toThrow(/loopback name/);
    await expect(check('https://app.localhost:9/')).rejects.toThrow(/loopback name/);
  });

  it('lets localhost through where loopback targets are allowed (tests), judged by its addresses', async () => {
    expect(await check('https://localhost:9/', { localhost: ['127.0.0.1'] }, { allowLoopback: true })).toBeNull();
  });
});

describe('pinnedLookup', () => {
  const lookup = pinnedLookup([
    { address: '93.184.216.34', family: 4 },
    { address: '2606:2800:220:1::1', family: 6 },
  ]);
  const call = (options: object) =>
    new Promise<unknown[]>((resolve) => lookup('ignored.example', options, (error, address, family) => resolve([error?.code ?? null, address, family])));

  it('answers only with the checked addresses, whatever name is asked', async () => {
    expect(await call({ all: true })).toEqual([null, [{ address: '93.184.216.34', family: 4 }, { address: '2606:2800:220:1::1', family: 6 }], undefined]);
    expect(await call({})).toEqual([null, '93.184.216.34', 4]);
    expect(await call({ family: 6 })).toEqual([null, '2606:2800:220:1::1', 6]);
  });

  it('fails rather than resolving anew when no checked address fits', async () => {
    const v4only = pinnedLookup([{ address: '93.184.216.34', family: 4 }]);
    const result = await new Promise<unknown>((resolve) => v4only('x', { family: 6 }, (error) => resolve(error?.code)));
    expect(result).toBe('ENOTFOUND');
  });
});
