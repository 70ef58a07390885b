// PHYSICAL_ADDRESS: a strict structured object with an ISO 3166-1 alpha-2 country.
import { describe, expect, it } from 'vitest';
import { COUNTRY_CODES, decodeValue, normalizeFilter, toDisplayText } from '../../../src/kernel/values/index.ts';
import { accept, field, reject } from './helpers.ts';

const springfield = { line1: '742 Evergreen Terrace', city: 'Springfield', region: 'IL', postalCode: '62701', countryCode: 'US' };

describe('PHYSICAL_ADDRESS', () => {
  it('accepts a full address with a fixed key order', () => {
    const stored = accept('PHYSICAL_ADDRESS', { countryCode: 'US', postalCode: '62701', region: 'IL', city: 'Springfield', line2: 'Apt 2', line1: '742 Evergreen Terrace' });
    expect(stored).toEqual({ ...springfield, line2: 'Apt 2' });
    expect(Object.keys(stored as object)).toEqual(['line1', 'line2', 'city', 'region', 'postalCode', 'countryCode']);
  });

  it('needs only line1, city and countryCode; blank and null optional parts are left out', () => {
    expect(accept('PHYSICAL_ADDRESS', { line1: '1 Rue de Rivoli', line2: '  ', region: null, city: 'Paris', countryCode: 'FR' })).toEqual({
      line1: '1 Rue de Rivoli',
      city: 'Paris',
      countryCode: 'FR',
    });
  });

  it('trims, collapses repeated spaces, upper-cases country and postal codes', () => {
    expect(accept('PHYSICAL_ADDRESS', { line1: '  10   Downing  St ', city: 'London', postalCode: 'sw1a 2aa', countryCode: ' gb ' })).toEqual({
      line1: '10 Downing St',
      city: 'London',
      postalCode: 'SW1A 2AA',
      countryCode: 'GB',
    });
  });

  it.each(['USA', 'UK', 'XX', 'ZZ', 'EU', 'U', '12', 'Deutschland'])('refuses the country code %j', (countryCode) => {
    expect(reject('PHYSICAL_ADDRESS', { ...springfield, countryCode })).toMatch(/countryCode must be an ISO 3166-1 alpha-2 code/);
  });

  it.each(['DE', 'JP', 'BR', 'AQ', 'XK', 'ss'])('accepts the country code %j', (countryCode) => {
    expect(accept('PHYSICAL_ADDRESS', { ...springfield, countryCode })).toMatchObject({ countryCode: countryCode.toUpperCase() });
  });

  it('knows exactly the 249 ISO 3166-1 codes plus XK, each a real region', () => {
    expect(COUNTRY_CODES.size).toBe(250);
    const names = new Intl.DisplayNames(['en'], { type: 'region' });
    for (const code of COUNTRY_CODES) expect(names.of(code), code).not.toBe(code);
  });

  it('refuses unknown keys, so typos such as zip or country are not lost', () => {
    expect(reject('PHYSICAL_ADDRESS', { ...springfield, zip: '62701', country: 'US' })).toMatch(/unknown keys zip, country \(allowed: line1, line2, city, region, postalCode, countryCode\)/);
  });

  it('names every missing required part', () => {
    expect(reject('PHYSICAL_ADDRESS', { line2: 'Apt 2' })).toBe('line1, city, countryCode are required');
    expect(reject('PHYSICAL_ADDRESS', { line1: 'x', countryCode: 'US' })).toBe('city is required');
  });

  it('fills a missing country from config.defaultCountryCode', () => {
    expect(accept('PHYSICAL_ADDRESS', { line1: 'Unter den Linden 1', city: 'Berlin' }, { defaultCountryCode: 'DE' })).toMatchObject({ countryCode: 'DE' });
    expect(accept('PHYSICAL_ADDRESS', { ...springfield }, { defaultCountryCode: 'DE' })).toMatchObject({ countryCode: 'US' });
  });

  it('enforces lengths and single lines, and collects every problem', () => {
    const message = reject('PHYSICAL_ADDRESS', { line1: 'x'.repeat(201), line2: 'a\nb', city: 'c'.repeat(101), region: 'r'.repeat(101), postalCode: '1'.repeat(21), countryCode: 'US' });
    expect(message).toContain('line1 must be at most 200 characters');
    expect(message).toContain('line2 must be a single line');
    expect(message).toContain('city must be at most 100 characters');
    expect(message).toContain('region must be at most 100 characters');
    expect(message).toContain('postalCode must be at most 20 characters');
    expect(accept('PHYSICAL_ADDRESS', { ...springfield, line1: 'x'.repeat(200) })).toMatchObject({ line1: 'x'.repeat(200) });
  });

  it.each(['ABC#1', '-123', '12 34-', 'ü123'])('refuses the postal code %j', (postalCode) => {
    expect(reject('PHYSICAL_ADDRESS', { ...springfield, postalCode })).toMatch(/postalCode may contain only/);
  });

  it.each(['01310-100', 'D02 X285', 'SW1A 1AA', '100-0001'])('accepts the postal code %j', (postalCode) => {
    expect(accept('PHYSICAL_ADDRESS', { ...springfield, postalCode })).toMatchObject({ postalCode });
  });

  it('refuses parts that are not strings', () => {
    expect(reject('PHYSICAL_ADDRESS', { ...springfield, postalCode: 62701 })).toMatch(/postalCode must be a string, not a number/);
  });

  it.each(['742 Evergreen Terrace, Springfield', ['line1'], 42, true])('refuses the non-object %j', (raw) => {
    expect(reject('PHYSICAL_ADDRESS', raw)).toMatch(/must be an address object/);
  });

  it('treats an object with every part blank as empty (clears)', () => {
    expect(accept('PHYSICAL_ADDRESS', {})).toBeNull();
    expect(accept('PHYSICAL_ADDRESS', { line1: ' ', city: '', countryCode: null })).toBeNull();
  });

  it('decodes to all six keys, null where absent', () => {
    expect(decodeValue(field('PHYSICAL_ADDRESS'), { line1: 'a', city: 'b', countryCode: 'US' })).toEqual({
      line1: 'a',
      line2: null,
      city: 'b',
      region: null,
      postalCode: null,
      countryCode: 'US',
    });
    expect(decodeValue(field('PHYSICAL_ADDRESS'), 'not an address')).toBeNull();
  });

  it('displays and searches as one line', () => {
    expect(toDisplayText(field('PHYSICAL_ADDRESS'), springfield)).toBe('742 Evergreen Terrace, Springfield, IL, 62701, US');
    expect(normalizeFilter(field('PHYSICAL_ADDRESS'), 'contains', 'Springfield')).toEqual({ ok: true, operator: 'contains', value: 'springfield' });
    expect(normalizeFilter(field('PHYSICAL_ADDRESS'), 'eq', null)).toEqual({ ok: true, operator: 'eq', value: null });
    expect(normalizeFilter(field('PHYSICAL_ADDRESS'), 'eq', springfield)).toMatchObject({ ok: false, part: 'value' });
  });
});
