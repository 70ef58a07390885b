// Data type → codec. Adding a data type means adding a codec here, its config schema in config.ts
// and a row in docs/api/data-types.md.
import { physicalAddress } from './address.ts';
import { booleanCodec } from './boolean.ts';
import type { Codec, ValueShape, FilterOperator } from './codec.ts';
import type { FieldConfigOf } from './config.ts';
import { emailAddress, phoneNumber, webUrl } from './contact.ts';
import { decimal, money, wholeNumber } from './numeric.ts';
import { multiDataRecord, multiFile, multiImage, singleDataRecord, singleFile, singleImage } from './references.ts';
import { date, dateTime } from './temporal.ts';
import { formattedText, plainText } from './text.ts';
import type { DataType, StoredValue } from './types.ts';

const CODECS: { [T in DataType]: Codec<FieldConfigOf<T>, StoredValue> } = {
  PLAIN_TEXT: plainText,
  FORMATTED_TEXT: formattedText,
  NUMBER: wholeNumber,
  DECIMAL: decimal,
  MONEY: money,
  DATE: date,
  DATE_TIME: dateTime,
  EMAIL_ADDRESS: emailAddress,
  PHONE_NUMBER: phoneNumber,
  BOOLEAN: booleanCodec,
  URL: webUrl,
  PHYSICAL_ADDRESS: physicalAddress,
  SINGLE_DATA_RECORD: singleDataRecord,
  MULTI_DATA_RECORD: multiDataRecord,
  SINGLE_FILE: singleFile,
  MULTI_FILE: multiFile,
  SINGLE_IMAGE: singleImage,
  MULTI_IMAGE: multiImage,
};

/** The codec of a type, with config and stored value typed loosely: callers hold a config already
 *  validated for that type (resolveFieldConfig) and a stored value checked with `isStored`. */
export function codecFor(dataType: DataType): Codec<unknown, StoredValue> {
  return CODECS[dataType] as Codec<unknown, StoredValue>;
}

export function operatorsFor(dataType: DataType): readonly FilterOperator[] {
  return CODECS[dataType].operators;
}

export function valueShape(dataType: DataType): ValueShape {
  return CODECS[dataType].shape;
}
