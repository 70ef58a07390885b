// Exact numbers. JSON numbers are IEEE-754 doubles once parsed, so "no float drift" means: keep
// decimals as decimal strings end to end and only accept a JSON number when the double it became
// still tells us exactly which decimal the client wrote.
import { createRequire } from 'node:module';
import type { Decimal } from 'decimal.js';
import { fail, ok, type Parsed } from './types.ts';

// decimal.js ships CommonJS typings but an ESM build with only a default export, so a static import
// type-checks against one shape and runs with another. Loading the CommonJS build makes both agree.
const decimalJs = createRequire(import.meta.url)('decimal.js') as typeof import('decimal.js');

// A private constructor: generous precision, and never exponent notation in toString().
const Dec = decimalJs.Decimal.clone({
  precision: 100,
  rounding: decimalJs.Decimal.ROUND_HALF_EVEN,
  toExpNeg: -1000,
  toExpPos: 1000,
});
export type Dec = Decimal;

export const MAX_INTEGER_DIGITS = 28;
export const MAX_FRACTION_DIGITS = 20;
const UPPER_BOUND = new Dec(`1e${MAX_INTEGER_DIGITS}`);
// Plain notation only: "12", "-0.5", "3.", ".25". Exponents ("1e400"), "+", separators, hex,
// "NaN" and "Infinity" are refused: they are either ambiguous or a way to ask for huge work.
const DECIMAL_STRING = /^-?(?:\d+(?:\.\d*)?|\.\d+)$/;
// Every decimal with at most 15 significant digits survives a round trip through a double
// (DBL_DIG), and Number#toString prints the shortest such decimal, so String(n) gives back what the
// client wrote. With 16-17 digits it may not (0.1 + 0.2 arrives as 0.30000000000000004).
const DOUBLE_EXACT_DIGITS = 15;

/** Parses a JSON number or a decimal string into an exact decimal within the platform bounds. */
export function parseDecimal(raw: unknown): Parsed<Dec> {
  let value: Dec;
  if (typeof raw === 'number') {
    if (!Number.isFinite(raw)) return fail('must be a finite number');
    value = new Dec(String(raw));
    if (!Number.isSafeInteger(raw) && value.sd() > DOUBLE_EXACT_DIGITS) {
      return fail(
        `has more than ${DOUBLE_EXACT_DIGITS} significant digits, which a JSON number cannot carry exactly; send it as a string such as "${value.toFixed()}"`,
      );
    }
  } else if (typeof raw === 'string') {
    const text = raw.trim();
    if (text.length > MAX_INTEGER_DIGITS + MAX_FRACTION_DIGITS + 40) return fail('is too long for a decimal number');
    if (!DECIMAL_STRING.test(text)) {
      return fail('must be a decimal number such as "12.30": digits with an optional "-" and ".", no exponent, "+" or separators');
    }
    value = new Dec(text);
  } else {
    return fail('must be a number or a decimal string such as "12.30"');
  }
  if (value.isZero()) value = new Dec(0); // no "-0"
  if (value.abs().gte(UPPER_BOUND)) return fail(`must have at most ${MAX_INTEGER_DIGITS} digits before the decimal point`);
  if (value.decimalPlaces() > MAX_FRACTION_DIGITS) return fail(`must have at most ${MAX_FRACTION_DIGITS} digits after the decimal point`);
  return ok(value);
}

/** Canonical text: exactly `scale` fraction digits when a scale is given (the value must already fit
 *  it), otherwise the shortest exact form ("12.30" → "12.3", "1.0" → "1"). */
export function formatDecimal(value: Dec, scale?: number): string {
  return scale === undefined ? value.toFixed() : value.toFixed(scale);
}

export function decimalFrom(text: string): Dec {
  return new Dec(text);
}

export function compareDecimalStrings(a: string, b: string): number {
  return new Dec(a).comparedTo(new Dec(b));
}

/** Whole numbers (NUMBER): JSON numbers that are safe integers, or integer strings in that range.
 *  Beyond 2^53 - 1 a JSON number is no longer exact, so the range is capped there. */
export function parseWholeNumber(raw: unknown): Parsed<number> {
  const range = `must be between ${Number.MIN_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER}`;
  if (typeof raw === 'number') {
    if (!Number.isFinite(raw)) return fail('must be a finite number');
    if (!Number.isInteger(raw)) return fail('must be a whole number');
    if (!Number.isSafeInteger(raw)) return fail(range);
    return ok(raw === 0 ? 0 : raw);
  }
  if (typeof raw === 'string') {
    const text = raw.trim();
    if (!/^-?\d+$/.test(text)) return fail('must be a whole number such as 42');
    if (text.replace(/^-?0*/, '').length > 16) return fail(range);
    const value = Number(text);
    if (!Number.isSafeInteger(value)) return fail(range);
    return ok(value === 0 ? 0 : value);
  }
  return fail('must be a whole number');
}
