// NUMBER, DECIMAL and MONEY: whole numbers in the safe-integer range, exact decimals, no float drift.
import { describe, expect, it } from 'vitest';
import { decodeValue, normalizeFilter, toDisplayText } from '../../../src/kernel/values/index.ts';
import { accept, field, reject } from './helpers.ts';
import { decimalFrom, formatDecimal } from '../../../src/kernel/values/decimal.ts';
import { decodeScaled } from '../../../src/kernel/values/numeric.ts';

describe('NUMBER', () => {
  it.each([
    [42, 42],
    [-7, -7],
    [0, 0],
    [1e3, 1000],
    ['42', 42],
    [' 17 ', 17],
    ['007', 7],
    ['-12', -12],
    [Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
    [Number.MIN_SAFE_INTEGER, Number.MIN_SAFE_INTEGER],
    ['9007199254740991', 9007199254740991],
    ['-9007199254740991', -9007199254740991],
  ])('accepts %j as %j', (raw, expected) => {
    expect(accept('NUMBER', raw)).toBe(expected);
  });

  it('stores -0 as 0', () => {
    expect(Object.is(accept('NUMBER', -0), 0)).toBe(true);
    expect(Object.is(accept('NUMBER', '-0'), 0)).toBe(true);
  });

  it.each([2 ** 53, -(2 ** 53), 2 ** 53 + 2, '9007199254740992', '9007199254740993', '-9007199254740992', '1' + '0'.repeat(30), 1e300])(
    'refuses %j, outside the safe-integer range a JSON number stays exact in',
    (raw) => {
      expect(reject('NUMBER', raw)).toMatch(/between -9007199254740991 and 9007199254740991/);
    },
  );

  it.each([1.5, -0.1, '1.5', '1e3', '+5', '0x10', '1_000', '1,000', 'twelve', ' - 1'])(
    'refuses the non-whole %j',
    (raw) => {
      expect(reject('NUMBER', raw)).toMatch(/whole number/);
    },
  );

  it.each([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])('refuses %j', (raw) => {
    expect(reject('NUMBER', raw)).toMatch(/finite/);
  });

  it.each([true, {}, [1]])('refuses the non-number %j', (raw) => {
    expect(reject('NUMBER', raw)).toMatch(/whole number/);
  });

  it('applies config.min and config.max', () => {
    expect(accept('NUMBER', 1, { min: 1, max: 10 })).toBe(1);
    expect(accept('NUMBER', 10, { min: 1, max: 10 })).toBe(10);
    expect(reject('NUMBER', 0, { min: 1, max: 10 })).toBe('must be at least 1');
    expect(reject('NUMBER', 11, { min: 1, max: 10 })).toBe('must be at most 10');
  });

  it('decodes to a JSON number', () => {
    expect(decodeValue(field('NUMBER'), 42)).toBe(42);
    expect(decodeValue(field('NUMBER'), 'garbage')).toBeNull();
  });
});

describe('DECIMAL', () => {
  it.each([
    ['12.30', '12.3'],
    ['12.3', '12.3'],
    [12.3, '12.3'],
    ['1.0', '1'],
    ['-0.0', '0'],
    [-0, '0'],
    ['.5', '0.5'],
    ['5.', '5'],
    ['-12.5', '-12.5'],
    [' 3.14 ', '3.14'],
    ['0.000001', '0.000001'],
    [1e-7, '0.0000001'],
    [1e21, '1000000000000000000000'],
  ])('accepts %j and stores the shortest exact form %j', (raw, expected) => {
    expect(accept('DECIMAL', raw)).toBe(expected);
  });

  it('keeps decimals exact: "0.1" and "0.2" stay 0.1 and 0.2, never a binary approximation', () => {
    expect(accept('DECIMAL', '0.1')).toBe('0.1');
    expect(accept('DECIMAL', '0.2')).toBe('0.2');
    expect(accept('DECIMAL', 0.1)).toBe('0.1');
    // the float sum 0.1 + 0.2 reaches us as 0.30000000000000004: refused rather than silently kept or rounded
    expect(reject('DECIMAL', 0.1 + 0.2)).toMatch(/more than 15 significant digits.*send it as a string such as "0.30000000000000004"/);
    // as a string the client means exactly that value, which stays distinct from 0.3
    expect(accept('DECIMAL', '0.30000000000000004')).toBe('0.30000000000000004');
  });

  it('takes long values exactly when sent as strings', () => {
    expect(accept('DECIMAL', '9007199254740993')).toBe('9007199254740993');
    expect(accept('DECIMAL', '1234567890123456789012345678.12345678901234567890')).toBe('1234567890123456789012345678.1234567890123456789');
  });

  it('accepts JSON numbers up to 15 significant digits, and any safe integer', () => {
    expect(accept('DECIMAL', 123456789.012345)).toBe('123456789.012345');
    expect(accept('DECIMAL', 1234567890123456)).toBe('1234567890123456');
    expect(accept('DECIMAL', Number.MAX_SAFE_INTEGER)).toBe('9007199254740991');
    // 2^53 is where JSON numbers stop being exact: 9007199254740993 arrives as 9007199254740992
    expect(reject('DECIMAL', 2 ** 53)).toMatch(/send it as a string/);
    expect(reject('DECIMAL', 0.1234567890123456)).toMatch(/send it as a string/);
  });

  it.each(['1e400', '1E5', '1e-5', '+5', '1,000.00', '1 000', 'NaN', 'Infinity', '-Infinity', '0x10', '1.2.3', '.', '-', '--1', '١٢'])(
    'refuses the non-plain decimal string %j',
    (raw) => {
      expect(reject('DECIMAL', raw)).toMatch(/decimal number such as "12.30"/);
    },
  );

  it.each([Number.NaN, Number.POSITIVE_INFINITY, JSON.parse('1e400') as number])('refuses the non-finite number %j', (raw) => {
    expect(reject('DECIMAL', raw)).toMatch(/finite/);
  });

  it.each([true, {}, ['1']])('refuses %j', (raw) => {
    expect(reject('DECIMAL', raw)).toMatch(/number or a decimal string/);
  });

  it('bounds digits: 28 before the point, 20 after, and refuses huge inputs early', () => {
    expect(accept('DECIMAL', '9'.repeat(28))).toBe('9'.repeat(28));
    expect(reject('DECIMAL', '1' + '0'.repeat(28))).toMatch(/at most 28 digits before/);
    expect(accept('DECIMAL', `0.${'1'.repeat(20)}`)).toBe(`0.${'1'.repeat(20)}`);
    expect(reject('DECIMAL', `0.${'1'.repeat(21)}`)).toMatch(/at most 20 digits after/);
    expect(accept('DECIMAL', `1.${'1'.repeat(19)}00000`)).toBe(`1.${'1'.repeat(19)}`); // trailing zeros do not count
    expect(reject('DECIMAL', '1'.repeat(100_000))).toMatch(/too long/);
    expect(reject('DECIMAL', 1e300)).toMatch(/at most 28 digits before/);
  });

  it('with config.scale pads to that many digits and refuses more instead of rounding', () => {
    expect(accept('DECIMAL', '1.5', { scale: 2 })).toBe('1.50');
    expect(accept('DECIMAL', 3, { scale: 2 })).toBe('3.00');
    expect(accept('DECIMAL', '1.500', { scale: 2 })).toBe('1.50');
    expect(reject('DECIMAL', '1.005', { scale: 2 })).toBe('must have at most 2 digits after the decimal point');
    expect(accept('DECIMAL', '2.0', { scale: 0 })).toBe('2');
    expect(reject('DECIMAL', '2.5', { scale: 0 })).toBe('must not have digits after the decimal point');
  });

  it('applies config.min and config.max exactly', () => {
    const config = { min: '0.1', max: '99.99' };
    expect(accept('DECIMAL', '0.1', config)).toBe('0.1');
    expect(reject('DECIMAL', '0.09999999999', config)).toBe('must be at least 0.1');
    expect(accept('DECIMAL', '99.99', config)).toBe('99.99');
    expect(reject('DECIMAL', '99.990000001', config)).toBe('must be at most 99.99');
  });

  it('decodes to a string at the current scale, padding but never rounding', () => {
    expect(decodeValue(field('DECIMAL'), '12.3')).toBe('12.3');
    expect(decodeValue(field('DECIMAL', { scale: 2 }), '12.3')).toBe('12.30');
    expect(decodeValue(field('DECIMAL', { scale: 1 }), '12.345')).toBe('12.345');
    expect(decodeValue(field('DECIMAL'), 'abc')).toBeNull();
    expect(decodeValue(field('DECIMAL'), { x: 1 })).toBeNull();
  });
});

describe('MONEY', () => {
  const eur = { currency: 'EUR' };

  it.each([
    ['19.99', '19.99'],
    [19.99, '19.99'],
    ['5', '5.00'],
    [0, '0.00'],
    ['-12.5', '-12.50'],
    ['1000000.1', '1000000.10'],
  ])('EUR: accepts %j as %j (two decimals)', (raw, expected) => {
    expect(accept('MONEY', raw, eur)).toBe(expected);
  });

  it('never drifts: 19.99 is 19.99, not 1998.9999999999998 cents', () => {
    expect(accept('MONEY', 19.99, eur)).toBe('19.99');
    expect(accept('MONEY', 0.07, eur)).toBe('0.07');
  });

  it('refuses more decimals than the currency has instead of rounding', () => {
    expect(reject('MONEY', '1.999', eur)).toBe('must have at most 2 digits after the decimal point');
    expect(reject('MONEY', 0.1 + 0.2, eur)).toMatch(/send it as a string/);
  });

  it('takes the scale from the currency (JPY 0, KWD 3), config.scale, or 2', () => {
    expect(accept('MONEY', '1200', { currency: 'JPY' })).toBe('1200');
    expect(reject('MONEY', '1200.5', { currency: 'JPY' })).toMatch(/not have digits after/);
    expect(accept('MONEY', '1.234', { currency: 'KWD' })).toBe('1.234');
    expect(accept('MONEY', '1.2345', { currency: 'EUR', scale: 4 })).toBe('1.2345');
    expect(accept('MONEY', '7')).toBe('7.00');
  });

  it('applies config.min/max', () => {
    expect(reject('MONEY', '-0.01', { currency: 'USD', min: 0 })).toBe('must be at least 0');
    expect(accept('MONEY', '0', { currency: 'USD', min: 0 })).toBe('0.00');
  });

  it('refuses exponents and non-finite values', () => {
    expect(reject('MONEY', '1e3', eur)).toMatch(/decimal number/);
    expect(reject('MONEY', Number.NaN, eur)).toMatch(/finite/);
  });

  it('decodes at the scale, and displays with the currency', () => {
    expect(decodeValue(field('MONEY', eur), '12.3')).toBe('12.30');
    expect(decodeValue(field('MONEY', eur), '12.30')).toBe('12.30');
    expect(toDisplayText(field('MONEY', eur), '12.30')).toBe('12.30 EUR');
    expect(toDisplayText(field('MONEY'), '12.30')).toBe('12.30');
  });

  it('normalizes filter operands to the shortest exact form', () => {
    expect(normalizeFilter(field('MONEY', eur), 'gte', '12.30')).toEqual({ ok: true, operator: 'gte', value: '12.3' });
    // a filter may ask for values the field cannot hold (no scale check on operands)
    expect(normalizeFilter(field('MONEY', eur), 'lt', '0.005')).toEqual({ ok: true, operator: 'lt', value: '0.005' });
  });
});

describe('decimal reads: the string-only path gives the exact path’s text', () => {
  // the reference: what reading did before the string-only path, through decimal.js
  const exact = (stored: string, scale: number | undefined) => {
    const value = decimalFrom(stored);
    return scale !== undefined && value.decimalPlaces() <= scale ? formatDecimal(value, scale) : formatDecimal(value);
  };

  it('for canonical, padded, zero and non-canonical stored strings at every scale', () => {
    const stored = ['0', '-0', '-0.00', '0.0', '12', '12.3', '12.30', '12.305', '-12.3', '-0.5', '1000000000000000000000000000.12345678901234567890', '007.50', '.25', '3.', '-.5', '5.000'];
    let seed = 11;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let i = 0; i < 500; i++) {
      const whole = String(Math.floor(random() * 10 ** Math.floor(random() * 10)));
      const fraction = String(Math.floor(random() * 10 ** 6)).padStart(Math.floor(random() * 7), '0').slice(0, Math.floor(random() * 7));
      stored.push(`${random() < 0.3 ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`);
    }
    for (const s of stored) for (const scale of [undefined, 0, 1, 2, 3, 8]) expect(decodeScaled(s, scale), `${s} at scale ${scale}`).toBe(exact(s, scale));
  });
});
