// Typed field values (Document 1 §2.4, §4.2): the one entry point for storage, GraphQL and REST.
// See docs/api/data-types.md for the contract these functions implement.
export { ADDRESS_PARTS } from './address.ts';
export { FILTER_OPERATORS, type FilterOperator, type ValueShape } from './codec.ts';
export {
  currencyDigits,
  DEFAULT_FORMATTED_TEXT_MAX_LENGTH,
  DEFAULT_PLAIN_TEXT_MAX_LENGTH,
  FIELD_CONFIG_KEYS,
  FIELD_CONFIG_SCHEMAS,
  type ConfigResult,
  type FieldConfig,
  type FieldConfigOf,
  moneyScale,
  resolveFieldConfig,
  validateFieldConfig,
} from './config.ts';
export { COUNTRY_CODES } from './countries.ts';
export {
  decodeRecordFields,
  decodeValue,
  type EncodeRecordOptions,
  type EncodeResult,
  encodeRecordFields,
  encodeValue,
  type FieldError,
  type RecordFieldsResult,
  referenceErrors,
  toValidationError,
} from './encode.ts';
export {
  type FilterOperand,
  type FilterResult,
  type FiltersResult,
  isFilterOperator,
  isSystemFilterField,
  type NormalizedFilter,
  normalizeFilter,
  normalizeFilters,
  normalizeSystemFilter,
  operatorsFor,
  SYSTEM_FILTER_FIELDS,
  SYSTEM_FILTER_OPERATORS,
  type SystemFilterField,
} from './filters.ts';
export { compareCodePoints, compareKeys, indexKey, sortKey, toDisplayText } from './keys.ts';
export { isPrefixedFileId } from './references.ts';
export { valueShape } from './registry.ts';
export { htmlToText, sanitizeRichText } from './text.ts';
export {
  DATA_TYPES,
  type DataType,
  type FieldDef,
  type IndexKey,
  isDataType,
  type KeyKind,
  MAX_FILTERS,
  MAX_IN_VALUES,
  MAX_REFERENCE_ITEMS,
  type References,
  type StoredAddress,
  type StoredValue,
  type ValueOptions,
} from './types.ts';
