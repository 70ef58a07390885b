// NUMBER (whole), DECIMAL and MONEY (exact decimals).
//
// Wire format: NUMBER is a JSON number (every stored value is a safe integer, which JSON carries
// exactly). DECIMAL and MONEY are read back as decimal strings ("12.30") and accepted as decimal
// strings or as JSON numbers of at most 15 significant digits: a string is the only JSON form that
// survives JavaScript, GraphQL Float and most JSON parsers without turning into a binary double,
// and it keeps MONEY's fixed scale ("12.30", not 12.3). The stored form is the same string; its
// index key is the shortest exact form ("12.3"), compared numerically (SQL: ::numeric).
import { defineCodec } from './codec.ts';
import { type FieldConfigOf, moneyScale } from './config.ts';
import { type Dec, decimalFrom, formatDecimal, parseDecimal, parseWholeNumber } from './decimal.ts';
import { fail, ok, type Parsed } from './types.ts';

const RANGE_OPERATORS = ['eq', 'ne', 'gt', 'lt', 'gte', 'lte', 'in'] as const;

export const wholeNumber = defineCodec<FieldConfigOf<'NUMBER'>, number>({
  shape: { keyKind: 'integer', multi: false, sortable: true },
  operators: RANGE_OPERATORS,
  encode(raw, config) {
    const parsed = parseWholeNumber(raw);
    if (!parsed.ok) return parsed;
    if (config.min !== undefined && parsed.value < config.min) return fail(`must be at least ${config.min}`);
    if (config.max !== undefined && parsed.value > config.max) return fail(`must be at most ${config.max}`);
    return parsed;
  },
  isStored: (v): v is number => Number.isSafeInteger(v),
  key: (stored) => stored,
  text: (stored) => String(stored),
  operand: (raw) => parseWholeNumber(raw),
});

/** Parses a decimal and checks it against a scale (no rounding: too many digits is an error) and
 *  optional bounds. */
function parseScaled(raw: unknown, scale: number | undefined, min?: string, max?: string): Parsed<Dec> {
  const parsed = parseDecimal(raw);
  if (!parsed.ok) return parsed;
  const value = parsed.value;
  if (scale !== undefined && value.decimalPlaces() > scale) {
    return fail(scale === 0 ? 'must not have digits after the decimal point' : `must have at most ${scale} digits after the decimal point`);
  }
  if (min !== undefined && value.lt(decimalFrom(min))) return fail(`must be at least ${min}`);
  if (max !== undefined && value.gt(decimalFrom(max))) return fail(`must be at most ${max}`);
  return ok(value);
}

// What encode writes: no "+", no exponent, no leading zeros, within the digit limits. Reads take a string-only path for
// these (every record read decodes every decimal; a Decimal object costs microseconds) and the
// exact Decimal path for anything else, so both give the same text.
const CANONICAL_DECIMAL = /^-?(?:0|[1-9]\d{0,27})(?:\.\d{1,20})?$/;

const isDecimalString = (v: unknown): v is string => typeof v === 'string' && (CANONICAL_DECIMAL.test(v) || parseDecimal(v).ok);

/** Reads a stored decimal at the field's current scale. A scale raised after values were written
 *  pads them ("12.3" → "12.30"); a value with more digits than a lowered scale is shown unrounded. */
export function decodeScaled(stored: string, scale: number | undefined): string {
  if (CANONICAL_DECIMAL.test(stored)) {
    const dot = stored.indexOf('.');
    const whole = dot < 0 ? stored : stored.slice(0, dot);
    const fraction = dot < 0 ? '' : stored.slice(dot + 1).replace(/0+$/, '');
    // "-0" and "-0.00" are zero, which reads without its sign: left to the exact path
    if (whole !== '-0' || fraction !== '') {
      if (scale !== undefined && fraction.length <= scale) return scale === 0 ? whole : `${whole}.${fraction.padEnd(scale, '0')}`;
      return fraction ? `${whole}.${fraction}` : whole;
    }
  }
  const value = decimalFrom(stored);
  return scale !== undefined && value.decimalPlaces() <= scale ? formatDecimal(value, scale) : formatDecimal(value);
}

const decimalKey = (stored: string) => formatDecimal(decimalFrom(stored));

function decimalOperand(raw: unknown): Parsed<string> {
  const parsed = parseDecimal(raw);
  return parsed.ok ? ok(formatDecimal(parsed.value)) : parsed;
}

export const decimal = defineCodec<FieldConfigOf<'DECIMAL'>, string>({
  shape: { keyKind: 'decimal', multi: false, sortable: true },
  operators: RANGE_OPERATORS,
  encode(raw, config) {
    const parsed = parseScaled(raw, config.scale, config.min, config.max);
    return parsed.ok ? ok(formatDecimal(parsed.value, config.scale)) : parsed;
  },
  isStored: isDecimalString,
  decode: (stored, config) => decodeScaled(stored, config.scale),
  key: decimalKey,
  text: (stored, config) => decodeScaled(stored, config.scale),
  operand: decimalOperand,
});

export const money = defineCodec<FieldConfigOf<'MONEY'>, string>({
  shape: { keyKind: 'decimal', multi: false, sortable: true },
  operators: RANGE_OPERATORS,
  encode(raw, config) {
    const scale = moneyScale(config);
    const parsed = parseScaled(raw, scale, config.min, config.max);
    return parsed.ok ? ok(formatDecimal(parsed.value, scale)) : parsed;
  },
  isStored: isDecimalString,
  decode: (stored, config) => decodeScaled(stored, moneyScale(config)),
  key: decimalKey,
  // "12.30 EUR": the amount as stored, the currency from the field (ISO code, locale-neutral).
  text: (stored, config) => {
    const amount = decodeScaled(stored, moneyScale(config));
    return config.currency ? `${amount} ${config.currency}` : amount;
  },
  operand: decimalOperand,
});
