// EMAIL_ADDRESS, PHONE_NUMBER and URL: single-line identifiers people type with variations
// (case, spacing, punctuation); each is stored in one canonical form so equality filters work.
import { domainToASCII, domainToUnicode } from 'node:url';
import type { CountryCode } from 'libphonenumber-js/max';
import { phoneNumbers } from '../../app/on-first-use.ts';
import { defineCodec } from './codec.ts';
import type { FieldConfigOf } from './config.ts';
import { textPattern } from './text.ts';
import { codePointLength, describeType, textProblem } from './text-guards.ts';
import { fail, ok, type Parsed } from './types.ts';

const TEXT_OPERATORS = ['eq', 'ne', 'in', 'contains', 'startsWith'] as const;

function singleLineString(raw: unknown, what: string): Parsed<string> {
  if (typeof raw !== 'string') return fail(`must be ${what} string, not ${describeType(raw)}`);
  const text = raw.trim().normalize('NFC');
  const problem = textProblem(text, { singleLine: true });
  return problem ? fail(problem) : ok(text);
}

// ---------------------------------------------------------------------------------------------
// EMAIL_ADDRESS: "local@domain". The domain is checked as a DNS name (IDNA through Node's WHATWG
// implementation), lower-cased and kept in its Unicode form ("Bücher.DE" and "xn--bcher-kva.de"
// both become "bücher.de"). The local part keeps its case (RFC 5321 leaves it to the receiving
// server); filters compare case-insensitively anyway. Quoted local parts, comments and IP-literal
// domains are valid RFC 5322 but refused: they are almost always mistakes in a contact database.

// RFC 5322 atext, plus any non-ASCII character that is not a space or control (RFC 6531).
const ATEXT = "(?:[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]|[^\\p{ASCII}\\p{White_Space}\\p{C}])";
const LOCAL_PART = new RegExp(`^${ATEXT}+(?:\\.${ATEXT}+)*$`, 'u');
const DNS_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const TOP_LEVEL = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

export function parseEmail(raw: unknown): Parsed<string> {
  const line = singleLineString(raw, 'an email address');
  if (!line.ok) return line;
  const text = line.value;
  if (codePointLength(text) > 254) return fail('must be at most 254 characters');
  const at = text.lastIndexOf('@');
  if (at <= 0 || at === text.length - 1) return fail('must look like name@example.com');
  const local = text.slice(0, at);
  const domain = text.slice(at + 1);
  if (local.includes('@')) return fail('must contain exactly one @');
  if (Buffer.byteLength(local) > 64) return fail('the part before @ must be at most 64 bytes');
  if (!LOCAL_PART.test(local)) return fail('the part before @ contains characters, spaces or dots that are not allowed');
  const ascii = domainToASCII(domain);
  const labels = ascii.split('.');
  if (!ascii || ascii.length > 253 || labels.length < 2 || !labels.every((l) => DNS_LABEL.test(l)) || !TOP_LEVEL.test(labels.at(-1)!)) {
    return fail(`the domain ${JSON.stringify(domain)} is not a valid domain name`);
  }
  return ok(`${local}@${domainToUnicode(ascii)}`);
}

/** A single text normalized by `parse` and compared without case: keys and operands are lower-cased. */
function caseInsensitiveText<Kind extends 'EMAIL_ADDRESS' | 'URL'>(parse: (raw: unknown) => Parsed<string>) {
  return defineCodec<FieldConfigOf<Kind>, string>({
    shape: { keyKind: 'text', multi: false, sortable: true },
    operators: TEXT_OPERATORS,
    encode(raw) {
      if (typeof raw === 'string' && raw.trim() === '') return ok(null);
      return parse(raw);
    },
    isStored: (v): v is string => typeof v === 'string',
    key: (stored) => stored.toLowerCase(),
    text: (stored) => stored,
    operand(raw) {
      const parsed = parse(raw);
      return parsed.ok ? ok(parsed.value.toLowerCase()) : parsed;
    },
    pattern: (raw) => textPattern(raw),
  });
}

export const emailAddress = caseInsensitiveText<'EMAIL_ADDRESS'>(parseEmail);

// ---------------------------------------------------------------------------------------------
// PHONE_NUMBER: E.164 ("+14155552671") through libphonenumber-js with its full metadata, so a
// number must be valid for its country, not only of a plausible length. National numbers need the
// field's `defaultCountry`. Extensions are refused rather than dropped: E.164 cannot hold them.

export function parsePhone(raw: unknown, defaultCountry?: string): Parsed<string> {
  if (typeof raw === 'number') return fail('must be a string such as "+14155552671"; a JSON number loses the + and leading zeros');
  const line = singleLineString(raw, 'a phone number');
  if (!line.ok) return line;
  const text = line.value;
  if (text.length > 64) return fail('is too long for a phone number');
  const international = text.startsWith('+');
  if (!international && !defaultCountry) {
    return fail('must start with + and the country code (e.g. +14155552671); this field has no defaultCountry');
  }
  const phone = phoneNumbers().parsePhoneNumberFromString(text, { defaultCountry: defaultCountry as CountryCode | undefined, extract: false });
  if (!phone) return fail('is not a phone number');
  if (phone.ext) return fail('must not have an extension; E.164 numbers cannot carry one');
  if (!phone.isValid()) {
    return fail(international || !defaultCountry ? 'is not a valid phone number' : `is not a valid phone number for ${defaultCountry}`);
  }
  return ok(phone.number);
}

/** contains/startsWith on phones: digits (and a leading +), formatting characters removed.
 *  startsWith always anchors at the "+" of E.164: "1415" means "+1415". */
function phonePattern(raw: unknown, operator: 'contains' | 'startsWith'): Parsed<string> {
  if (typeof raw !== 'string') return fail(`must be a string of digits, not ${describeType(raw)}`);
  const digits = raw.replace(/[\s().\-/]/g, '');
  if (!/^\+?\d{1,15}$/.test(digits)) return fail('must be digits, optionally starting with +');
  return ok(operator === 'startsWith' && !digits.startsWith('+') ? `+${digits}` : digits);
}

export const phoneNumber = defineCodec<FieldConfigOf<'PHONE_NUMBER'>, string>({
  shape: { keyKind: 'text', multi: false, sortable: true },
  operators: TEXT_OPERATORS,
  encode(raw, config) {
    if (typeof raw === 'string' && raw.trim() === '') return ok(null);
    return parsePhone(raw, config.defaultCountry);
  },
  isStored: (v): v is string => typeof v === 'string',
  key: (stored) => stored,
  text: (stored) => stored,
  operand: (raw, config) => parsePhone(raw, config.defaultCountry),
  pattern: (raw, _config, operator) => phonePattern(raw, operator),
});

// ---------------------------------------------------------------------------------------------
// URL: absolute http(s) URLs only (no javascript:, data:, file: ...), no embedded credentials,
// serialized by the WHATWG URL parser: scheme and host lower-cased, IDN hosts in punycode, default
// port removed, dot segments resolved, unsafe characters percent-encoded.

export const MAX_URL_LENGTH = 2048;

export function parseUrl(raw: unknown): Parsed<string> {
  const line = singleLineString(raw, 'a URL');
  if (!line.ok) return line;
  const text = line.value;
  if (text.length > MAX_URL_LENGTH) return fail(`must be at most ${MAX_URL_LENGTH} characters`);
  if (/\s/.test(text)) return fail('must not contain spaces');
  // Checked on the text, before the lenient WHATWG parser turns "http:example.com" or "http:\\x"
  // into something else.
  if (!/^https?:\/\//i.test(text)) return fail('must be an absolute URL starting with http:// or https://');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return fail('is not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return fail('must use http or https');
  if (!url.hostname) return fail('must have a host');
  if (url.username || url.password) return fail('must not contain a user name or password');
  if (url.href.length > MAX_URL_LENGTH) return fail(`must be at most ${MAX_URL_LENGTH} characters once normalized`);
  return ok(url.href);
}

export const webUrl = caseInsensitiveText<'URL'>(parseUrl);
