// validateFieldConfig: the settings each data type accepts, canonicalized, strict.
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../src/app/errors.ts';
import {
  DATA_TYPES,
  encodeValue,
  FIELD_CONFIG_KEYS,
  moneyScale,
  resolveFieldConfig,
  validateFieldConfig,
} from '../../../src/kernel/values/index.ts';
import { field } from './helpers.ts';

function details(dataType: string, config: unknown) {
  const result = validateFieldConfig(dataType, config);
  if (result.ok) expect.fail(`config accepted: ${JSON.stringify(result.config)}`);
  return result.details;
}

describe('validateFieldConfig', () => {
  it.each(DATA_TYPES)('%s accepts no config (undefined, null or {})', (dataType) => {
    expect(validateFieldConfig(dataType, undefined)).toEqual({ ok: true, config: {} });
    expect(validateFieldConfig(dataType, null)).toEqual({ ok: true, config: {} });
    expect(validateFieldConfig(dataType, {})).toEqual({ ok: true, config: {} });
  });

  it('lists the keys of every type', () => {
    expect(FIELD_CONFIG_KEYS).toEqual({
      PLAIN_TEXT: ['maxLength'],
      FORMATTED_TEXT: ['maxLength'],
      NUMBER: ['min', 'max'],
      DECIMAL: ['scale', 'min', 'max'],
      MONEY: ['currency', 'scale', 'min', 'max'],
      DATE: [],
      DATE_TIME: [],
      EMAIL_ADDRESS: [],
      PHONE_NUMBER: ['defaultCountry'],
      BOOLEAN: [],
      URL: [],
      PHYSICAL_ADDRESS: ['defaultCountryCode'],
      SINGLE_DATA_RECORD: ['targetDataCollectionSimplyId'],
      MULTI_DATA_RECORD: ['targetDataCollectionSimplyId', 'maxItems'],
      SINGLE_FILE: [],
      MULTI_FILE: ['maxItems'],
      SINGLE_IMAGE: [],
      MULTI_IMAGE: ['maxItems'],
    });
  });

  it('refuses unknown settings, naming each and the allowed ones', () => {
    expect(details('PLAIN_TEXT', { maxLenght: 5, color: 'red' })).toEqual([
      { field: 'config.maxLenght', message: 'is not a setting of PLAIN_TEXT (allowed: maxLength)' },
      { field: 'config.color', message: 'is not a setting of PLAIN_TEXT (allowed: maxLength)' },
    ]);
    expect(details('BOOLEAN', { default: true })).toEqual([{ field: 'config.default', message: 'is not a setting of BOOLEAN (it takes none)' }]);
  });

  it('refuses an unknown data type and a config that is not an object', () => {
    expect(details('COLOR', {})).toEqual([{ field: 'dataType', message: expect.stringContaining('must be one of PLAIN_TEXT') }]);
    expect(details('PLAIN_TEXT', 'maxLength=5')[0]!.field).toBe('config');
    expect(details('PLAIN_TEXT', [1])[0]!.field).toBe('config');
  });

  it('checks text lengths', () => {
    expect(validateFieldConfig('PLAIN_TEXT', { maxLength: 500 })).toEqual({ ok: true, config: { maxLength: 500 } });
    expect(details('PLAIN_TEXT', { maxLength: 0 })[0]!.field).toBe('config.maxLength');
    expect(details('PLAIN_TEXT', { maxLength: 100_001 })[0]!.field).toBe('config.maxLength');
    expect(details('PLAIN_TEXT', { maxLength: 2.5 })[0]!.field).toBe('config.maxLength');
    expect(details('PLAIN_TEXT', { maxLength: '50' })[0]!.field).toBe('config.maxLength');
  });

  it('checks NUMBER bounds: safe integers, min <= max', () => {
    expect(validateFieldConfig('NUMBER', { min: -5, max: 5 })).toEqual({ ok: true, config: { min: -5, max: 5 } });
    expect(details('NUMBER', { min: 5, max: 1 })).toEqual([{ field: 'config.min', message: 'min must not be greater than max' }]);
    expect(details('NUMBER', { max: 2 ** 53 })[0]!.field).toBe('config.max');
    expect(details('NUMBER', { min: 0.5 })[0]!.field).toBe('config.min');
  });

  it('canonicalizes DECIMAL bounds to decimal strings and checks the scale', () => {
    expect(validateFieldConfig('DECIMAL', { scale: 2, min: 0, max: '100.50' })).toEqual({ ok: true, config: { scale: 2, min: '0', max: '100.5' } });
    expect(details('DECIMAL', { scale: 21 })[0]!.field).toBe('config.scale');
    expect(details('DECIMAL', { scale: -1 })[0]!.field).toBe('config.scale');
    expect(details('DECIMAL', { min: '1e5' })).toEqual([{ field: 'config.min', message: expect.stringContaining('decimal number') }]);
    expect(details('DECIMAL', { min: '10', max: '9.99' })).toEqual([{ field: 'config.min', message: 'min must not be greater than max' }]);
  });

  it('checks MONEY currency (ISO 4217, upper-cased) and scale', () => {
    expect(validateFieldConfig('MONEY', { currency: 'eur' })).toEqual({ ok: true, config: { currency: 'EUR' } });
    expect(details('MONEY', { currency: 'XYZ' })).toEqual([{ field: 'config.currency', message: 'must be an ISO 4217 currency code such as "EUR"' }]);
    expect(details('MONEY', { currency: 'EURO' })[0]!.field).toBe('config.currency');
    expect(details('MONEY', { scale: 9 })[0]!.field).toBe('config.scale');
  });

  it('resolves the MONEY scale: config.scale, else the currency minor units, else 2', () => {
    expect(moneyScale({})).toBe(2);
    expect(moneyScale({ currency: 'JPY' })).toBe(0);
    expect(moneyScale({ currency: 'BHD' })).toBe(3);
    expect(moneyScale({ currency: 'JPY', scale: 2 })).toBe(2);
  });

  it('checks country settings', () => {
    expect(validateFieldConfig('PHONE_NUMBER', { defaultCountry: 'us' })).toEqual({ ok: true, config: { defaultCountry: 'US' } });
    expect(details('PHONE_NUMBER', { defaultCountry: 'USA' })[0]!.field).toBe('config.defaultCountry');
    expect(details('PHONE_NUMBER', { defaultCountry: 'BV' })).toEqual([{ field: 'config.defaultCountry', message: 'has no telephone numbering plan' }]);
    expect(validateFieldConfig('PHYSICAL_ADDRESS', { defaultCountryCode: 'de' })).toEqual({ ok: true, config: { defaultCountryCode: 'DE' } });
    expect(details('PHYSICAL_ADDRESS', { defaultCountryCode: 'XX' })[0]!.field).toBe('config.defaultCountryCode');
  });

  it('checks reference settings', () => {
    expect(validateFieldConfig('MULTI_DATA_RECORD', { targetDataCollectionSimplyId: 'ABCD-EFGH-JKMN', maxItems: 10 }).ok).toBe(true);
    expect(details('SINGLE_DATA_RECORD', { targetDataCollectionSimplyId: 'people' })[0]!.field).toBe('config.targetDataCollectionSimplyId');
    expect(details('MULTI_DATA_RECORD', { maxItems: 1001 })[0]!.field).toBe('config.maxItems');
    expect(details('MULTI_FILE', { maxItems: 0 })[0]!.field).toBe('config.maxItems');
    expect(details('SINGLE_FILE', { maxItems: 1 })[0]!.field).toBe('config.maxItems');
  });

  it('gives details a caller can throw as a VALIDATION_ERROR', () => {
    const result = validateFieldConfig('MONEY', { currency: 'XYZ', scale: 99 });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const error = new ValidationError(result.message, result.details);
    expect(error.status).toBe(400);
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.details?.map((d) => d.field)).toEqual(['config.currency', 'config.scale']);
  });

  it('caches per config object and data type', () => {
    const config = { maxLength: 3 };
    expect(resolveFieldConfig('PLAIN_TEXT', config)).toBe(resolveFieldConfig('PLAIN_TEXT', config));
    expect(resolveFieldConfig('NUMBER', config).ok).toBe(false);
    expect(resolveFieldConfig('PLAIN_TEXT', config).ok).toBe(true);
  });

  it('makes a field with an invalid stored config refuse writes with a clear message', () => {
    expect(encodeValue(field('NUMBER', { minimum: 1 }), 5)).toEqual({
      ok: false,
      message: expect.stringMatching(/^cannot be written: its configuration is invalid \(config.minimum is not a setting of NUMBER/),
    });
    expect(encodeValue(field('COLOR'), '#fff')).toEqual({ ok: false, message: 'has the unsupported data type COLOR' });
  });
});
