// Scalars shared by every domain.
import { GraphQLError, Kind, type ValueNode } from 'graphql';
import { localizedTextSchema } from '../localized-text.ts';
import { builder } from '../builder.ts';
import { isoTime } from '../iso-time.ts';

builder.scalarType('DateTime', {
  description: 'ISO 8601 timestamp',
  // a record's timestamps arrive as ISO text already (src/kernel/records/records.sql.ts)
  serialize: (value) => (typeof value === 'string' ? value : isoTime(value as Date)),
  parseValue: (value) => {
    const date = typeof value === 'string' ? new Date(value) : null;
    if (!date || Number.isNaN(date.getTime())) throw new GraphQLError('DateTime must be an ISO 8601 string');
    return date;
  },
});

function literalToJson(node: ValueNode): unknown {
  switch (node.kind) {
    case Kind.STRING:
    case Kind.BOOLEAN:
      return node.value;
    case Kind.INT:
    case Kind.FLOAT:
      return Number(node.value);
    case Kind.NULL:
      return null;
    case Kind.LIST:
      return node.values.map(literalToJson);
    case Kind.OBJECT:
      return Object.fromEntries(node.fields.map((f) => [f.name.value, literalToJson(f.value)]));
    default:
      throw new GraphQLError('Variables are not allowed inside JSON literals');
  }
}

builder.scalarType('JSON', {
  description: 'Any JSON value',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: (node) => literalToJson(node),
});

builder.scalarType('LocalizedText', {
  description: 'A plain string, or an object keyed by language tag: { "en": "Members", "fr": "Membres" }',
  serialize: (value) => value,
  parseValue: (value) => {
    const parsed = localizedTextSchema.safeParse(value);
    if (!parsed.success) throw new GraphQLError(parsed.error.issues[0]?.message ?? 'invalid localized text');
    return parsed.data;
  },
  parseLiteral: (node) => {
    const parsed = localizedTextSchema.safeParse(literalToJson(node));
    if (!parsed.success) throw new GraphQLError(parsed.error.issues[0]?.message ?? 'invalid localized text');
    return parsed.data;
  },
});
