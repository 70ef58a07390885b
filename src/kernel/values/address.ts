// PHYSICAL_ADDRESS: a structured postal address. Deliberately small and international: two street
// lines, a city, an optional region (state, province, county) and postal code, and an ISO 3166-1
// alpha-2 country. Strict: unknown keys are errors so "zip" or "country" typos are not lost.
import { defineCodec } from './codec.ts';
import type { FieldConfigOf } from './config.ts';
import { normalizeCountryCode } from './countries.ts';
import { textPattern } from './text.ts';
import { codePointLength, describeType, textProblem } from './text-guards.ts';
import { fail, ok, type StoredAddress } from './types.ts';

export const ADDRESS_PARTS = ['line1', 'line2', 'city', 'region', 'postalCode', 'countryCode'] as const;
type AddressPart = (typeof ADDRESS_PARTS)[number];

const MAX_LENGTH: Record<Exclude<AddressPart, 'countryCode'>, number> = {
  line1: 200,
  line2: 200,
  city: 100,
  region: 100,
  postalCode: 20,
};
const REQUIRED: readonly AddressPart[] = ['line1', 'city', 'countryCode'];
// Letters, digits, spaces and hyphens cover postal codes worldwide ("SW1A 1AA", "01310-100", "D02 X285").
const POSTAL_CODE = /^[A-Z0-9](?:[A-Z0-9 -]*[A-Z0-9])?$/;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

export const physicalAddress = defineCodec<FieldConfigOf<'PHYSICAL_ADDRESS'>, StoredAddress>({
  shape: { keyKind: 'text', multi: false, sortable: false },
  // eq/ne accept only null (is empty / is not empty); contains searches the one-line form.
  operators: ['eq', 'ne', 'contains'],
  encode(raw, config) {
    if (!isPlainObject(raw)) return fail(`must be an address object { line1, line2?, city, region?, postalCode?, countryCode }, not ${describeType(raw)}`);
    const problems: string[] = [];
    const unknown = Object.keys(raw).filter((k) => !(ADDRESS_PARTS as readonly string[]).includes(k));
    if (unknown.length) problems.push(`unknown key${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} (allowed: ${ADDRESS_PARTS.join(', ')})`);
    const parts: Partial<Record<AddressPart, string>> = {};
    for (const part of ADDRESS_PARTS) {
      const value = raw[part];
      if (value === undefined || value === null) continue;
      if (typeof value !== 'string') {
        problems.push(`${part} must be a string, not ${describeType(value)}`);
        continue;
      }
      // One line per part; runs of spaces collapse so equal addresses look equal.
      const text = value.normalize('NFC').replace(/ {2,}/g, ' ').trim();
      if (text === '') continue;
      const problem = textProblem(text, { singleLine: true });
      if (problem) {
        problems.push(`${part} ${problem}`);
        continue;
      }
      if (part === 'countryCode') {
        const code = normalizeCountryCode(text);
        if (code) parts.countryCode = code;
        else problems.push('countryCode must be an ISO 3166-1 alpha-2 code such as "US" or "DE"');
        continue;
      }
      if (codePointLength(text) > MAX_LENGTH[part]) {
        problems.push(`${part} must be at most ${MAX_LENGTH[part]} characters`);
        continue;
      }
      if (part === 'postalCode') {
        const code = text.toUpperCase();
        if (!POSTAL_CODE.test(code)) {
          problems.push('postalCode may contain only letters, digits, spaces and hyphens');
          continue;
        }
        parts.postalCode = code;
        continue;
      }
      parts[part] = text;
    }
    if (problems.length) return fail(problems.join('; '));
    // Every part blank: the address is empty (clears), not "missing line1, city...".
    if (Object.keys(parts).length === 0) return ok(null);
    if (!parts.countryCode && config.defaultCountryCode) parts.countryCode = config.defaultCountryCode;
    const missing = REQUIRED.filter((p) => !parts[p]);
    if (missing.length) return fail(`${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} required`);
    // Fixed key order; optional parts absent rather than null.
    return ok({
      line1: parts.line1!,
      ...(parts.line2 ? { line2: parts.line2 } : {}),
      city: parts.city!,
      ...(parts.region ? { region: parts.region } : {}),
      ...(parts.postalCode ? { postalCode: parts.postalCode } : {}),
      countryCode: parts.countryCode!,
    });
  },
  isStored: (v): v is StoredAddress =>
    isPlainObject(v) && typeof v.line1 === 'string' && typeof v.city === 'string' && typeof v.countryCode === 'string',
  // The wire form always has all six keys, null where a part is absent: a stable shape for clients.
  decode: (stored) => ({
    line1: stored.line1,
    line2: stored.line2 ?? null,
    city: stored.city,
    region: stored.region ?? null,
    postalCode: stored.postalCode ?? null,
    countryCode: stored.countryCode,
  }),
  key: (stored) => addressText(stored).toLowerCase(),
  text: (stored) => addressText(stored),
  operand: () => fail('only null is accepted (eq null: is empty, ne null: is not empty); use contains to search the address'),
  pattern: (raw) => textPattern(raw),
});

/** "1 Main St, Apt 2, Springfield, IL, 62701, US": every present part, in a fixed order. */
export function addressText(address: StoredAddress): string {
  return [address.line1, address.line2, address.city, address.region, address.postalCode, address.countryCode]
    .filter((p): p is string => typeof p === 'string' && p !== '')
    .join(', ');
}
