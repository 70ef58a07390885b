// The `config` object of a field definition (Document 1 §2.4: "object of settings"), per data type.
// Strict: an unknown setting is an error, so a typo ("maxLenght") is caught when the field is
// defined instead of being silently ignored for every record. Defaults are applied when a value is
// encoded, not written into the stored config, so a later change of a default reaches old fields.
import { phoneNumbers } from '../../app/on-first-use.ts';
import { z } from 'zod';
import type { ErrorDetail } from '../../app/errors.ts';
import { isSimplyId } from '../../app/ids.ts';
import { normalizeCountryCode } from './countries.ts';
import { formatDecimal, MAX_FRACTION_DIGITS, parseDecimal } from './decimal.ts';
import { DATA_TYPES, type DataType, isDataType, MAX_REFERENCE_ITEMS } from './types.ts';

export const DEFAULT_PLAIN_TEXT_MAX_LENGTH = 10_000;
export const DEFAULT_FORMATTED_TEXT_MAX_LENGTH = 100_000;
export const DEFAULT_MONEY_SCALE = 2;
export const MAX_MONEY_SCALE = 8;

const safeInteger = z.int().min(Number.MIN_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER);

/** A decimal bound given as a JSON number or decimal string; stored as its canonical string. */
const decimalBound = z.union([z.number(), z.string()]).transform((value, ctx) => {
  const parsed = parseDecimal(value);
  if (!parsed.ok) {
    ctx.addIssue({ code: 'custom', message: parsed.message });
    return z.NEVER;
  }
  return formatDecimal(parsed.value);
});

const CURRENCIES: ReadonlySet<string> = new Set(Intl.supportedValuesOf('currency'));
const currency = z
  .string()
  .transform((v) => v.trim().toUpperCase())
  .refine((v) => CURRENCIES.has(v), 'must be an ISO 4217 currency code such as "EUR"');

const countryCode = z.string().transform((value, ctx) => {
  const code = normalizeCountryCode(value);
  if (!code) {
    ctx.addIssue({ code: 'custom', message: 'must be an ISO 3166-1 alpha-2 country code such as "DE"' });
    return z.NEVER;
  }
  return code;
});

const phoneCountry = countryCode.refine((c) => phoneNumbers().isSupportedCountry(c), 'has no telephone numbering plan');

const maxItems = z.int().min(1).max(MAX_REFERENCE_ITEMS);
const collectionId = z.string().refine((v) => isSimplyId(v), 'must be a collection simplyId (XXXX-XXXX-XXXX)');

function orderedBounds<T extends { min?: unknown; max?: unknown }>(compare: (a: NonNullable<T['min']>, b: NonNullable<T['max']>) => number) {
  return (config: T, ctx: z.RefinementCtx) => {
    if (config.min != null && config.max != null && compare(config.min as never, config.max as never) > 0) {
      ctx.addIssue({ code: 'custom', message: 'min must not be greater than max', path: ['min'] });
    }
  };
}

const compareDecimalText = (a: string, b: string) => {
  const x = parseDecimal(a);
  const y = parseDecimal(b);
  return x.ok && y.ok ? x.value.comparedTo(y.value) : 0;
};

const empty = z.strictObject({});

export const FIELD_CONFIG_SCHEMAS = {
  PLAIN_TEXT: z.strictObject({ maxLength: z.int().min(1).max(100_000).optional() }),
  FORMATTED_TEXT: z.strictObject({ maxLength: z.int().min(1).max(1_000_000).optional() }),
  NUMBER: z
    .strictObject({ min: safeInteger.optional(), max: safeInteger.optional() })
    .superRefine(orderedBounds<{ min?: number; max?: number }>((a, b) => a - b)),
  DECIMAL: z
    .strictObject({
      scale: z.int().min(0).max(MAX_FRACTION_DIGITS).optional(),
      min: decimalBound.optional(),
      max: decimalBound.optional(),
    })
    .superRefine(orderedBounds<{ min?: string; max?: string }>(compareDecimalText)),
  MONEY: z
    .strictObject({
      currency: currency.optional(),
      scale: z.int().min(0).max(MAX_MONEY_SCALE).optional(),
      min: decimalBound.optional(),
      max: decimalBound.optional(),
    })
    .superRefine(orderedBounds<{ min?: string; max?: string }>(compareDecimalText)),
  DATE: empty,
  DATE_TIME: empty,
  EMAIL_ADDRESS: empty,
  PHONE_NUMBER: z.strictObject({ defaultCountry: phoneCountry.optional() }),
  BOOLEAN: empty,
  URL: empty,
  PHYSICAL_ADDRESS: z.strictObject({ defaultCountryCode: countryCode.optional() }),
  SINGLE_DATA_RECORD: z.strictObject({ targetDataCollectionSimplyId: collectionId.optional() }),
  MULTI_DATA_RECORD: z.strictObject({ targetDataCollectionSimplyId: collectionId.optional(), maxItems: maxItems.optional() }),
  SINGLE_FILE: empty,
  MULTI_FILE: z.strictObject({ maxItems: maxItems.optional() }),
  SINGLE_IMAGE: empty,
  MULTI_IMAGE: z.strictObject({ maxItems: maxItems.optional() }),
} satisfies Record<DataType, z.ZodType>;

export type FieldConfigOf<T extends DataType> = z.output<(typeof FIELD_CONFIG_SCHEMAS)[T]>;
export type FieldConfig = { [T in DataType]: FieldConfigOf<T> }[DataType];

/** The keys each type accepts (for error messages, docs and admin UIs). */
export const FIELD_CONFIG_KEYS: Record<DataType, string[]> = Object.fromEntries(
  DATA_TYPES.map((t) => [t, Object.keys(FIELD_CONFIG_SCHEMAS[t].shape)]),
) as Record<DataType, string[]>;

export type ConfigResult<T extends DataType = DataType> =
  | { ok: true; config: FieldConfigOf<T> }
  | { ok: false; message: string; details: ErrorDetail[] };

/** Validates a field's config for a data type. `null`/`undefined` mean "no settings". The returned
 *  config is canonical (upper-cased codes, decimal bounds as strings) and has no defaults filled in.
 *  Errors name `config.<key>` so a caller can throw `new ValidationError(message, details)`. */
export function validateFieldConfig<T extends DataType>(dataType: T, config: unknown): ConfigResult<T>;
export function validateFieldConfig(dataType: string, config: unknown): ConfigResult;
export function validateFieldConfig(dataType: string, config: unknown): ConfigResult {
  if (!isDataType(dataType)) {
    return {
      ok: false,
      message: `Unknown dataType ${JSON.stringify(dataType)}`,
      details: [{ field: 'dataType', message: `must be one of ${DATA_TYPES.join(', ')}` }],
    };
  }
  const parsed = FIELD_CONFIG_SCHEMAS[dataType].safeParse(config ?? {});
  if (parsed.success) return { ok: true, config: parsed.data as FieldConfig };
  const allowed = FIELD_CONFIG_KEYS[dataType];
  const details: ErrorDetail[] = parsed.error.issues.flatMap((issue): ErrorDetail[] => {
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({
        field: ['config', ...issue.path.map(String), key].join('.'),
        message: `is not a setting of ${dataType}${allowed.length ? ` (allowed: ${allowed.join(', ')})` : ' (it takes none)'}`,
      }));
    }
    return [{ field: ['config', ...issue.path.map(String)].join('.'), message: issue.message }];
  });
  return { ok: false, message: `Invalid config for a ${dataType} field`, details };
}

// Configs are parsed once per config object: a batch of 100 records touches each field 100 times.
const cache = new WeakMap<object, { dataType: string; result: ConfigResult }>();
const emptyCache = new Map<string, ConfigResult>();

/** validateFieldConfig with a cache keyed by the config object (treat configs as immutable). */
export function resolveFieldConfig(dataType: string, config: unknown): ConfigResult {
  if (config === null || config === undefined) {
    let result = emptyCache.get(dataType);
    if (!result) emptyCache.set(dataType, (result = validateFieldConfig(dataType, config)));
    return result;
  }
  if (typeof config !== 'object') return validateFieldConfig(dataType, config);
  const hit = cache.get(config);
  if (hit && hit.dataType === dataType) return hit.result;
  const result = validateFieldConfig(dataType, config);
  cache.set(config, { dataType, result });
  return result;
}

const digitsByCurrency = new Map<string, number>();

/** Minor-unit digits of a currency (EUR 2, JPY 0, KWD 3) as ICU knows them; cached, because an
 *  Intl.NumberFormat costs tens of microseconds to build. */
export function currencyDigits(code: string): number {
  let digits = digitsByCurrency.get(code);
  if (digits === undefined) {
    digits = new Intl.NumberFormat('en', { style: 'currency', currency: code }).resolvedOptions().maximumFractionDigits ?? DEFAULT_MONEY_SCALE;
    digitsByCurrency.set(code, digits);
  }
  return digits;
}

/** MONEY scale: `config.scale`, else the currency's minor units, else 2. */
export function moneyScale(config: FieldConfigOf<'MONEY'>): number {
  if (config.scale !== undefined) return config.scale;
  return config.currency ? currencyDigits(config.currency) : DEFAULT_MONEY_SCALE;
}
