// The fuzz suite's input generators (fuzz-run.ts sends what they make). Everything is derived from
// a route's own zod schemas, through their JSON Schema (input side), so a route added to the table
// is fuzzed as soon as it exists. A request is mostly a valid-shaped value with a few hostile
// mutations at random places: valid-shaped values use the world's real ids, so the request gets
// past the first check and the hostile part reaches the services and the database.
import fc from 'fast-check';
import { z } from 'zod';
import type { RestRoute } from '../../rest-adapter/route.ts';
import { noBuilder, pathParams } from '../support/route-world.ts';

/** A value with the words a failure report shows for it. */
export interface Labeled<T> {
  label: string;
  value: T;
}

/** name (path parameter, property, query parameter) → real values: the world's ids, spendable secrets */
export type ValuePool = Record<string, string[]>;

/** The request a case sends, before the engine adds a credential. */
export interface FuzzRequest {
  method: string;
  /** sent exactly as written: encoded where it should be, and not where it should not */
  path: string;
  contentType?: string;
  body?: string | Uint8Array;
  /** what the case is about, e.g. "body: replace at fields.fld-… with lone surrogate" */
  intent: string;
  /** how the case bends its credential, if it does (the engine applies it: it holds the tokens) */
  twist?: CredentialTwist;
}

/** Ways to bend a credential. Rare on purpose: failed checks count against the per-address limit of 401s. */
export const CREDENTIAL_TWISTS = [
  'another team selected',
  'malformed team selector',
  'a 5 KB team selector',
  'token truncated',
  'token with a character appended',
  'token without the Bearer scheme',
  'Basic scheme',
  'an 8 KB token',
  'JWT signed with alg none',
  'two tokens',
  'no credential',
] as const;
export type CredentialTwist = (typeof CREDENTIAL_TWISTS)[number];

// ---------------------------------------------------------------------------------------------
// JSON text: numbers JavaScript cannot hold (2^53+1, 1e309, -0) are written as raw JSON tokens.

const RAW = Symbol('raw JSON token');
interface RawToken {
  [RAW]: string;
}
const raw = (text: string): RawToken => ({ [RAW]: text });

function jsonText(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (RAW in value) return (value as RawToken)[RAW];
  if (Array.isArray(value)) return `[${value.map(jsonText).join(',')}]`;
  return `{${Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}:${jsonText(v)}`).join(',')}}`;
}

/** An own enumerable property, also for keys like `__proto__` that an assignment would not create. */
function withKey(object: object, key: string, value: unknown): Record<string, unknown> {
  const copy = copyObject(object);
  Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
  return copy;
}

function copyObject(object: object): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(object)) Object.defineProperty(copy, k, { value: v, enumerable: true, writable: true, configurable: true });
  return copy;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v) && !(RAW in v);

// ---------------------------------------------------------------------------------------------
// Hostile values. The huge ones are built once and shared: no mutation writes into them.

const nested = (levels: number, container: 'array' | 'object'): unknown => {
  let value: unknown = 'bottom';
  for (let i = 0; i < levels; i++) value = container === 'array' ? [value] : { a: value };
  return value;
};

const labeled = <T>(entries: Record<string, T>): Labeled<T>[] => Object.entries(entries).map(([label, value]) => ({ label, value }));

const BOUNDARY_NUMBERS = labeled<unknown>({
  zero: 0,
  'minus one': -1,
  'negative zero': raw('-0'),
  '2^31': 2 ** 31,
  '2^31-1': 2 ** 31 - 1,
  '-2^31-1': -(2 ** 31) - 1,
  '2^53': 2 ** 53,
  '2^53+1': raw('9007199254740993'),
  '1e308': 1e308,
  '-1e308': -1e308,
  '1e309 (Infinity once parsed)': raw('1e309'),
  '-1e309': raw('-1e309'),
  '1e-400 (underflow)': raw('1e-400'),
  'one half': 0.5,
  '30 digits': raw('123456789012345678901234567890'),
  '1.0': raw('1.0'),
});

const NUMBER_LIKE_STRINGS = labeled<unknown>({
  '"NaN"': 'NaN',
  '"Infinity"': 'Infinity',
  '"-Infinity"': '-Infinity',
  '"1e999"': '1e999',
  '"0x1F"': '0x1F',
  'empty string': '',
  'one space': ' ',
  '"1 "': '1 ',
  '"-0"': '-0',
  '"+1"': '+1',
  'Arabic-Indic digits': '١٢٣',
  '"2147483648"': '2147483648',
  '"9007199254740993"': '9007199254740993',
  '400 nines': '9'.repeat(400),
  '"00001"': '00001',
});

const BROKEN_TEXT = labeled<unknown>({
  NUL: '\u0000',
  'NUL inside': 'a\u0000b',
  'lone high surrogate': '\ud800',
  'lone low surrogate': 'x\udfff',
  'swapped surrogates': '\udfff\ud800',
  'half an emoji': 'ok\ud83d',
  'NUL and surrogate': 'a\u0000\ud800b',
  'control characters': '\u0001\u0008\u001b[31m\u007f',
  'CRLF header injection': 'x\r\nSet-Cookie: a=b',
  'BOM and zero-width': '\ufeff\u200b\u200d',
});

const INJECTIONS = labeled<unknown>({
  'SQL OR': "' OR 1=1 --",
  'SQL drop': '"; DROP TABLE "User"; --',
  'SQL comment': "admin'/*",
  '%00': '%00',
  template: '{{7*7}}',
  'template literal': '${7*7}',
  script: '<script>alert(1)</script>',
  'img onerror': '<img src=x onerror=alert(1)>',
  'path traversal': '../../etc/passwd',
  'windows traversal': '..\\..\\windows\\win.ini',
  'RTL override': '\u202Eevil\u202C.txt',
  emoji: '👨‍👩‍👧‍👦🔥',
  zalgo: 'Z̤͔ͧ̑̓ä͖̭̈̇lͮ̒ͫǧ̗͚̚o̙̔ͮ̇͐̇',
  'format string': '%s%s%s%n',
  'JSON in a string': '{"$gt":""}',
  'javascript: URL': 'javascript:alert(1)',
  'metadata URL': 'http://169.254.169.254/latest/meta-data/',
  'file URL': 'file:///etc/passwd',
  backslash: '\\',
  'lone quote': "'",
  'string "null"': 'null',
  'string "__proto__"': '__proto__',
  'LIKE wildcards': '%_%\\%',
  'regex bomb': '(a+)+$' + 'a'.repeat(40) + '!',
});

const HUGE = labeled<unknown>({
  '100 KB string': 'x'.repeat(100_000),
  '100 KB of 4-byte characters': '𝕏'.repeat(25_000),
  '20,000 NULs': '\u0000'.repeat(20_000),
  '20,000 lone surrogates': '\ud800'.repeat(20_000),
  'array of 20,000 zeros': Array.from({ length: 20_000 }, () => 0),
  'array of 5,000 strings': Array.from({ length: 5_000 }, (_, i) => `s${i}`),
  'array of 2,000 objects': Array.from({ length: 2_000 }, (_, i) => ({ id: i, name: 'x' })),
  'object with 5,000 keys': Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`k${i}`, i])),
});

const DEEP = labeled<unknown>({
  '100 nested arrays': nested(100, 'array'),
  '100 nested objects': nested(100, 'object'),
  '64 nested arrays (the limit)': nested(63, 'array'),
  '65 nested objects (one past)': nested(65, 'object'),
});

const WRONG_TYPES = labeled<unknown>({
  true: true,
  false: false,
  null: null,
  'a string': 'text',
  'a number': 42,
  'empty array': [],
  'empty object': {},
  'mixed array': [1, 'a', null, {}],
  'an object': { a: 1 },
});

const HOSTILE_KEYS = labeled<string>({
  'NUL key': '\u0000',
  'key with NUL': 'name\u0000',
  'lone surrogate key': '\ud800',
  'key with lone surrogate': 'k\udfff',
  __proto__: '__proto__',
  constructor: 'constructor',
  prototype: 'prototype',
  toString: 'toString',
  hasOwnProperty: 'hasOwnProperty',
  then: 'then',
  'empty key': '',
  'SQL key': "' OR 1=1 --",
  'script key': '<script>',
  '$where': '$where',
  '10 KB key': 'k'.repeat(10_000),
  'RTL key': '\u202Ekey',
  'emoji key': '😀',
});

function binaryString(maxLength: number): fc.Arbitrary<Labeled<unknown>> {
  return fc.string({ unit: 'binary', maxLength }).map((value) => ({ label: `random code points ${JSON.stringify(value).slice(0, 40)}`, value }));
}

/** Something hostile to put where a value goes. */
const hostileValue: fc.Arbitrary<Labeled<unknown>> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...BOUNDARY_NUMBERS) },
  { weight: 2, arbitrary: fc.constantFrom(...NUMBER_LIKE_STRINGS) },
  { weight: 3, arbitrary: fc.constantFrom(...BROKEN_TEXT) },
  { weight: 3, arbitrary: fc.constantFrom(...INJECTIONS) },
  { weight: 1, arbitrary: fc.constantFrom(...HUGE) },
  { weight: 1, arbitrary: fc.constantFrom(...DEEP) },
  { weight: 3, arbitrary: fc.constantFrom(...WRONG_TYPES) },
  { weight: 2, arbitrary: binaryString(24) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((value) => ({ label: `random JSON ${jsonText(value).slice(0, 40)}`, value })) },
);

/** A hostile text: for query values and keys, where only strings go. */
const hostileText: fc.Arbitrary<Labeled<string>> = fc.oneof(
  fc.constantFrom(...([...NUMBER_LIKE_STRINGS, ...BROKEN_TEXT, ...INJECTIONS] as Labeled<string>[])),
  fc.constantFrom(...BOUNDARY_NUMBERS.map((n) => ({ label: n.label, value: jsonText(n.value) }))),
  fc.string({ unit: 'binary', maxLength: 16 }).map((value) => ({ label: `random code points ${JSON.stringify(value)}`, value })),
);

const hostileKey: fc.Arbitrary<Labeled<string>> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_KEYS) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 8 }).map((value) => ({ label: `random key ${JSON.stringify(value)}`, value })) },
);

// ---------------------------------------------------------------------------------------------
// Valid-shaped values, from a JSON Schema.

type Schema = Record<string, any>;

export function inputJsonSchema(schema: z.ZodType): Schema {
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Schema;
}

/** The pool's values for a name: exact, singular ("…SimplyIds"), or by its last word ("orderedFieldSimplyIds" → a field id). */
export function poolValues(pool: ValuePool, name: string | undefined, description?: string): string[] {
  if (name && pool[name]) return pool[name]!;
  if (name && name.endsWith('s') && pool[name.slice(0, -1)]) return pool[name.slice(0, -1)]!;
  const noun = (name && /(SimplyIds?|Ids?)$/.test(name) ? lastWord(name.replace(/(SimplyIds?|Ids?)$/, '')) : undefined)
    ?? /\b([a-z]+) simplyIds?\b/i.exec(description ?? '')?.[1]?.toLowerCase();
  if (!noun) return [];
  return Object.entries(pool)
    .filter(([key]) => /(SimplyId|Id)$/.test(key) && lastWord(key.replace(/(SimplyId|Id)$/, '')) === noun)
    .flatMap(([, values]) => values);
}

const lastWord = (camel: string): string => (camel.match(/[A-Z]?[a-z]+$/)?.[0] ?? camel).toLowerCase();

/** UPPER_CASE words a description lists ("UPDATE_FIELDS, CREATE_RECORD, …"): the values a plain string field takes. */
const listedWords = (description: unknown): string[] => (typeof description === 'string' ? description.match(/\b[A-Z][A-Z0-9_]{2,}\b/g) ?? [] : []);

interface Walk {
  root: Schema;
  pool: ValuePool;
  depth: number;
}

function resolve(schema: Schema, walk: Walk): Schema {
  const ref = schema.$ref;
  if (typeof ref !== 'string') return schema;
  if (ref === '#') return walk.root;
  const name = /^#\/\$defs\/(.+)$/.exec(ref)?.[1];
  return (name && walk.root.$defs?.[name]) || {};
}

/** A value for a schema that says nothing (zod's unknown, or JSON it cannot describe): mostly objects, which such settings are. */
const anything = (walk: Walk): fc.Arbitrary<unknown> => {
  const known = Object.values(walk.pool).flat();
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant({}) },
    { weight: 2, arbitrary: fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }) },
    { weight: 1, arbitrary: fc.constant(null) },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
    ...(known.length ? [{ weight: 1, arbitrary: fc.constantFrom(...known) as fc.Arbitrary<unknown> }] : []),
  );
};

/**
 * The shape a description sketches, "[{ field, operator, value }]" or "{ maxAttempts 1-5, delaySeconds
 * 0-60 }": objects with those keys, a number in the range given, a real id where the key names one.
 */
function describedShape(description: unknown, walk: Walk): fc.Arbitrary<unknown> | null {
  if (typeof description !== 'string') return null;
  const sketch = /(\[)?\{\s*([^{}]+?)\s*\}/.exec(description);
  if (!sketch) return null;
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const part of sketch[2]!.split(',')) {
    const [, key, low, high] = /^\s*(\w+)(?:\s+(-?\d+)\s*-\s*(-?\d+))?/.exec(part) ?? [];
    if (!key) continue;
    const ids = poolValues(walk.pool, /(Id|Ids)$/.test(key) ? key : `${key}SimplyId`);
    model[key] = low !== undefined ? fc.integer({ min: Number(low), max: Number(high) }) : ids.length ? fc.constantFrom(...ids) : fc.oneof(fc.string({ maxLength: 12 }), fc.integer(), fc.constant({}));
  }
  if (Object.keys(model).length === 0) return null;
  const object = fc.record(model);
  return sketch[1] ? fc.array(object, { minLength: 1, maxLength: 3 }) : object;
}

/** A value the schema accepts, most of the time (patterns and formats are best effort). */
function validValue(schemaIn: Schema | boolean | undefined, walk: Walk, name?: string): fc.Arbitrary<unknown> {
  if (schemaIn === undefined || schemaIn === true || schemaIn === false) return anything(walk);
  if (walk.depth > 8) return fc.constant(null);
  const schema = resolve(schemaIn, walk);
  const inner: Walk = { ...walk, depth: walk.depth + 1 };
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return fc.constantFrom(...schema.enum);
  const branches = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(branches)) {
    // null branches are rarer: most optional-or-null fields should be exercised with a value
    return fc.oneof(...branches.map((b: Schema) => ({ weight: b.type === 'null' ? 1 : 4, arbitrary: validValue({ description: schema.description, ...b }, inner, name) })));
  }
  if (Array.isArray(schema.type)) return fc.oneof(...schema.type.map((type: string) => validValue({ ...schema, type }, inner, name)));
  switch (schema.type) {
    case 'object':
      return objectValue(schema, inner);
    case 'array': {
      const itemName = name?.endsWith('s') ? name.slice(0, -1) : name;
      if (schema.items && Object.keys(schema.items).length > 0) return arrayOf(validValue(schema.items, inner, itemName), schema);
      // items of any kind: what the description sketches ("[{ dataRecordSimplyId, fields }]"), or ids it names
      const described = describedShape(schema.description, walk);
      if (described) return described;
      const ids = poolValues(walk.pool, itemName, schema.description);
      return arrayOf(ids.length ? fc.constantFrom(...ids) : anything(walk), schema);
    }
    case 'string':
      return stringValue(schema, walk, name);
    case 'integer':
      return fc.integer({ min: Math.max(schema.minimum ?? -1000, -1_000_000), max: Math.min(schema.maximum ?? 1000, 1_000_000) });
    case 'number':
      return fc.double({ min: Math.max(schema.minimum ?? -1e6, -1e6), max: Math.min(schema.maximum ?? 1e6, 1e6), noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    default: {
      // "1-100, default 25": a number of that range
      const range = typeof schema.description === 'string' ? /^(-?\d+)\s*-\s*(-?\d+)\b/.exec(schema.description) : null;
      if (range) return fc.oneof({ weight: 3, arbitrary: fc.integer({ min: Number(range[1]), max: Number(range[2]) }) }, { weight: 1, arbitrary: anything(walk) });
      const shape = describedShape(schema.description, walk);
      if (shape) return fc.oneof({ weight: 3, arbitrary: shape }, { weight: 1, arbitrary: anything(walk) });
      const hints = [...poolValues(walk.pool, name, schema.description), ...listedWords(schema.description)];
      return hints.length ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...hints) }, { weight: 1, arbitrary: anything(walk) }) : anything(walk);
    }
  }
}

const arrayOf = (item: fc.Arbitrary<unknown>, schema: Schema) =>
  fc.array(item, { minLength: Math.min(schema.minItems ?? 0, 3), maxLength: Math.min(schema.maxItems ?? 4, 4) });

function objectValue(schema: Schema, walk: Walk): fc.Arbitrary<unknown> {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const names = Object.keys(properties);
  if (names.length === 0) {
    if (schema.additionalProperties === false) return fc.constant({});
    // a map: its keys are real ids when the description names them ("values keyed by field simplyId")
    const knownKeys = poolValues(walk.pool, undefined, schema.description);
    const key = knownKeys.length ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...knownKeys) }, fc.string({ maxLength: 12 })) : fc.string({ maxLength: 12 });
    const value = typeof schema.additionalProperties === 'object' ? validValue(schema.additionalProperties, walk) : fc.oneof(fc.string({ maxLength: 20 }), fc.jsonValue({ maxDepth: 1 }));
    return fc.dictionary(key, value, { maxKeys: 4 });
  }
  const model = Object.fromEntries(names.map((n) => [n, validValue(properties[n], walk, n)]));
  return fc.record(model, { requiredKeys: (schema.required ?? []) as string[] });
}

function stringValue(schema: Schema, walk: Walk, name?: string): fc.Arbitrary<string> {
  const known = poolValues(walk.pool, name, schema.description);
  const words = listedWords(schema.description);
  const comma = typeof schema.description === 'string' && /comma/i.test(schema.description);
  const options: fc.Arbitrary<string>[] = [];
  if (known.length) options.push(comma ? fc.subarray(known, { minLength: 1 }).map((ids) => ids.join(',')) : fc.constantFrom(...known));
  if (words.length) options.push(fc.constantFrom(...words));
  if (options.length) return options.length === 1 ? options[0]! : fc.oneof(...options);
  if (schema.format === 'email' || /email$/i.test(name ?? '')) return fc.emailAddress();
  if (schema.format === 'date-time' || /(At|Date)$/.test(name ?? '')) return fc.date({ noInvalidDate: true, min: new Date(0), max: new Date(4102444800000) }).map((d) => d.toISOString());
  // a webhook target and the like: the loopback discard port the world's webhook uses
  if (/url$/i.test(name ?? '')) return fc.constantFrom('https://127.0.0.1:9/hooks/in', 'https://127.0.0.1:9/x?y=1');
  if (typeof schema.pattern === 'string') {
    let pattern: RegExp | null = null;
    try {
      pattern = new RegExp(schema.pattern);
    } catch {
      // a pattern JavaScript cannot compile: plain text then
    }
    if (pattern) {
      const maxLength = Math.min(schema.maxLength ?? 40, 40);
      let matching: fc.Arbitrary<string>;
      try {
        matching = fc.stringMatching(pattern, { maxLength });
      } catch {
        // a pattern with no match that short (a 44-character checksum): as long as it takes
        matching = fc.stringMatching(pattern);
      }
      // a number in a query string: mostly one a list or a version could have
      const small = ['0', '1', '2', '5', '25'].filter((n) => pattern.test(n));
      return small.length ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...small) }, { weight: 1, arbitrary: matching }) : matching;
    }
  }
  return fc.string({ minLength: Math.min(schema.minLength ?? 0, 10), maxLength: Math.min(schema.maxLength ?? 24, 24) });
}

// ---------------------------------------------------------------------------------------------
// Mutations: what a valid-shaped body suffers before it is sent.

type Path = (string | number)[];

type Mutation =
  | { kind: 'replace'; with: Labeled<unknown> }
  | { kind: 'add key'; key: Labeled<string>; with: Labeled<unknown> }
  | { kind: 'drop key' }
  | { kind: 'null' }
  | { kind: 'wrap in array' };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 6, arbitrary: hostileValue.map((w) => ({ kind: 'replace' as const, with: w })) },
  { weight: 3, arbitrary: fc.record({ key: hostileKey, with: fc.oneof(hostileValue, fc.constant({ label: 'a short string', value: 'x' as unknown })) }).map((r) => ({ kind: 'add key' as const, ...r })) },
  { weight: 2, arbitrary: fc.constant({ kind: 'drop key' as const }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'null' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'wrap in array' as const }) },
);

/** Every place in a value a mutation can go (the root too); a huge container contributes a few of its children. */
function places(value: unknown, path: Path = [], out: { path: Path; value: unknown }[] = []): { path: Path; value: unknown }[] {
  out.push({ path, value });
  if (path.length >= 8 || value === null || typeof value !== 'object' || RAW in value) return out;
  const entries = Array.isArray(value) ? value.map((v, i) => [i, v] as const) : Object.entries(value);
  for (const [key, child] of entries.slice(0, 12)) places(child, [...path, key], out);
  return out;
}

function updateAt(value: unknown, path: Path, change: (node: unknown) => unknown): unknown {
  if (path.length === 0) return change(value);
  const [head, ...rest] = path;
  if (Array.isArray(value)) return value.map((v, i) => (i === head ? updateAt(v, rest, change) : v));
  if (isObject(value)) return withKey(value, String(head), updateAt(value[String(head)], rest, change));
  return value;
}

const describePath = (path: Path): string => (path.length ? path.map((p) => JSON.stringify(p).slice(0, 30)).join('.') : 'the root');

/** Applies `m` at the `pick`-th applicable place; returns the value and what was done. */
function mutate(value: unknown, m: Mutation, pick: number): Labeled<unknown> {
  const all = places(value);
  const needsObject = m.kind === 'add key' || m.kind === 'drop key' || m.kind === 'null';
  const candidates = needsObject ? all.filter((p) => isObject(p.value) && (m.kind === 'add key' || Object.keys(p.value as object).length > 0)) : all;
  if (candidates.length === 0) {
    // no object to add a key to or drop one from (the value is a string, say): the hostile value replaces it
    return m.kind === 'add key' ? { label: `replace the root with ${m.with.label}`, value: m.with.value } : { label: 'no place to drop a key', value };
  }
  const { path, value: node } = candidates[pick % candidates.length]!;
  const at = describePath(path);
  switch (m.kind) {
    case 'replace':
      return { label: `replace ${at} with ${m.with.label}`, value: updateAt(value, path, () => m.with.value) };
    case 'add key':
      return { label: `add key ${m.key.label} (${m.with.label}) at ${at}`, value: updateAt(value, path, (n) => withKey(n as object, m.key.value, m.with.value)) };
    case 'drop key':
    case 'null': {
      const keys = Object.keys(node as object);
      const key = keys[pick % keys.length]!;
      const change = (n: unknown) => {
        if (m.kind === 'null') return withKey(n as object, key, null);
        const copy = copyObject(n as object);
        delete copy[key];
        return copy;
      };
      return { label: `${m.kind === 'drop key' ? 'drop' : 'null'} ${describePath([...path, key])}`, value: updateAt(value, path, change) };
    }
    case 'wrap in array':
      return { label: `wrap ${at} in an array`, value: updateAt(value, path, (n) => [n]) };
  }
}

function mutated(valid: fc.Arbitrary<unknown>): fc.Arbitrary<Labeled<unknown>> {
  return fc.tuple(valid, fc.array(fc.tuple(mutation, fc.nat()), { minLength: 1, maxLength: 3 })).map(([value, ms]) => {
    const labels: string[] = [];
    let current = value;
    for (const [m, pick] of ms) {
      const step = mutate(current, m, pick);
      labels.push(step.label);
      current = step.value;
    }
    return { label: labels.join('; '), value: current };
  });
}

// ---------------------------------------------------------------------------------------------
// Bodies, paths and query strings of one route.

interface BodyCase {
  label: string;
  body?: string | Uint8Array;
  contentType?: string;
}

const JSON_TYPE = 'application/json';

const RAW_BODIES = labeled<string | Uint8Array>({
  'empty body': '',
  'truncated JSON': '{"a":',
  'lone brace': '{',
  'JSON null': 'null',
  'JSON array': '[]',
  'JSON string': '"text"',
  'JSON number': '0',
  'two documents': '{"a":1}{"b":2}',
  'trailing garbage': '{}garbage',
  'BOM before JSON': '\ufeff{}',
  'duplicate keys': '{"name":"a","name":"b"}',
  '__proto__ body': '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}',
  'raw control character in a string': '{"name":"a\u0001b"}',
  'invalid UTF-8 bytes': Uint8Array.from([0x7b, 0x22, 0x6e, 0x61, 0x6d, 0x65, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc0, 0xaf, 0x22, 0x7d]),
  'UTF-8 encoded surrogate bytes': Uint8Array.from([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d]),
  'escaped NUL key and value': '{"\\u0000":"\\u0000"}',
  '1e999999 number': '{"a":1e999999}',
  'JSON with comments': '{/* c */"a":1}',
  'single quotes': "{'a':1}",
});

const ODD_CONTENT_TYPES = ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=latin1', 'APPLICATION/JSON', 'application/vnd.api+json', 'application/json, text/plain', ''];

const OVER_LIMIT = 'x'.repeat(1_100_000);

function bodyCase(route: RestRoute, pool: ValuePool): fc.Arbitrary<BodyCase> {
  const asJson = (label: string, value: unknown): BodyCase => ({ label: `body: ${label}`, body: jsonText(value), contentType: JSON_TYPE });
  const rawBody = fc.constantFrom(...RAW_BODIES).map((r) => ({ label: `body: ${r.label}`, body: r.value, contentType: JSON_TYPE }));
  if (!route.body) {
    return fc.oneof(
      { weight: 12, arbitrary: fc.constant({ label: 'no body' }) },
      { weight: 1, arbitrary: hostileValue.map((h) => asJson(`${h.label} (the route takes none)`, h.value)) },
      { weight: 1, arbitrary: rawBody },
    );
  }
  const schema = inputJsonSchema(route.body);
  const valid = validValue(schema, { root: schema, pool, depth: 0 });
  return fc.oneof(
    { weight: 24, arbitrary: mutated(valid).map((m) => asJson(m.label, m.value)) },
    { weight: 6, arbitrary: valid.map((v) => asJson('valid-shaped', v)) },
    { weight: 4, arbitrary: hostileValue.map((h) => asJson(`${h.label} as the whole body`, h.value)) },
    { weight: 4, arbitrary: rawBody },
    {
      weight: 2,
      arbitrary: fc.tuple(valid, fc.constantFrom(...ODD_CONTENT_TYPES)).map(([v, type]) => ({ label: `body: valid-shaped as ${JSON.stringify(type)}`, body: jsonText(v), contentType: type || undefined })),
    },
    { weight: 1, arbitrary: fc.constant(0).map(() => asJson('1.1 MB string (over the body limit)', { name: OVER_LIMIT })) },
    { weight: 1, arbitrary: fc.constant({ label: 'no body (one is expected)' }) },
  );
}

/** `encodeURIComponent`, also for text it refuses: a lone surrogate becomes the (invalid) UTF-8 of its code unit. */
function encodeLoosely(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.charCodeAt(0);
    if (char.length === 1 && code >= 0xd800 && code <= 0xdfff) out += `%${(0xe0 | (code >> 12)).toString(16)}%${(0x80 | ((code >> 6) & 0x3f)).toString(16)}%${(0x80 | (code & 0x3f)).toString(16)}`.toUpperCase();
    else out += encodeURIComponent(char);
  }
  return out;
}

const ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';

/** An id of the same kind as `id` (same prefix, same groups) that nobody has. */
const wellFormedLike = (id: string): fc.Arbitrary<string> =>
  fc.array(fc.constantFrom(...ALPHABET), { minLength: id.length, maxLength: id.length }).map((chars) => [...id].map((c, i) => (isGroupChar(id, i) ? chars[i]! : c)).join(''));

/** Whether position i of an id is inside one of its XXXX groups (not its prefix). */
function isGroupChar(id: string, i: number): boolean {
  const prefix = /^[a-z_]+[-_]/.exec(id)?.[0].length ?? 0;
  return i >= prefix && ALPHABET.includes(id[i]!);
}

const MALFORMED_SEGMENTS = (own: string, otherKind: string): Labeled<string>[] =>
  labeled({
    '"0"': '0',
    '"-1"': '-1',
    'a numeric id': '123456',
    '2^53+1': '9007199254740993',
    '%00': '%00',
    'NUL inside': 'a%00b',
    '%2e%2e': '%2e%2e',
    '%2E': '%2E',
    '..': '..',
    'a 5,000-character id': 'A'.repeat(5_000),
    'encoded slashes after the id': `${own}%2F..%2F..%2Fetc%2Fpasswd`,
    'an encoded slash': '%2F',
    'encoded slash inside': 'a%2Fb',
    '%25': '%25',
    'lone %': '%',
    'bad escape %zz': '%zz',
    'overlong UTF-8 dots': '%C0%AE%C0%AE',
    'UTF-8 encoded surrogate': '%ED%A0%80',
    'emoji': '%F0%9F%94%A5',
    '"null"': 'null',
    'SQL OR': encodeURIComponent("' OR 1=1 --"),
    'RTL override': encodeURIComponent('\u202Eevil'),
    'the id lower-cased': own.toLowerCase(),
    'the id plus a character': `${own}X`,
    'the id with a trailing space': `${own}%20`,
    'an id of another kind': otherKind,
  });

/** A path parameter's real values: the world's ids, or what the route's `params` schema lists (an enum needs no builder). */
function realPathValues(route: RestRoute, name: string, own: ValuePool): string[] {
  if (own[name]?.length) return own[name]!;
  const property = route.params ? (inputJsonSchema(route.params).properties?.[name] as Schema | undefined) : undefined;
  return ((property?.enum ?? ('const' in (property ?? {}) ? [property!.const] : [])) as unknown[]).map(String);
}

function pathCase(route: RestRoute, own: ValuePool, foreign: ValuePool): fc.Arbitrary<Labeled<string>> {
  const names = pathParams(route.path);
  if (names.length === 0) return fc.constant({ label: '', value: route.path });
  const segment = (name: string): fc.Arbitrary<Labeled<string>> => {
    const real = realPathValues(route, name, own);
    const mine = real[0];
    if (!mine) throw new Error(noBuilder(route, name));
    const theirs = foreign[name]?.[0] ?? mine;
    const otherKind = Object.entries(own).find(([key, v]) => key !== name && /SimplyId$/.test(key) && v[0] && !v[0].startsWith(mine.slice(0, 4)))?.[1][0] ?? 'x';
    return fc.oneof(
      { weight: 14, arbitrary: fc.constantFrom(...real).map((value) => ({ label: '', value: encodeURIComponent(value) })) },
      { weight: 2, arbitrary: fc.constant({ label: `{${name}}: another team's id`, value: encodeURIComponent(theirs) }) },
      { weight: 1, arbitrary: wellFormedLike(mine).map((id) => ({ label: `{${name}}: a well-formed id nobody has`, value: encodeURIComponent(id) })) },
      { weight: 3, arbitrary: fc.constantFrom(...MALFORMED_SEGMENTS(encodeURIComponent(mine), encodeURIComponent(otherKind))).map((m) => ({ label: `{${name}}: ${m.label}`, value: m.value })) },
    );
  };
  return fc.tuple(...names.map(segment)).map((segments) => {
    let i = 0;
    const value = route.path.replace(/\{\w+\}/g, () => segments[i++]!.value);
    return { label: segments.map((s) => s.label).filter(Boolean).join('; '), value };
  });
}

type Pair = [string, string];
type QueryChange = (pairs: Pair[]) => Labeled<Pair[]>;

const ODD_QUERY_PARTS = labeled({
  'empty pairs': '&&',
  'a bare =': '=',
  'a value without a name': '=x',
  'a name without =': 'flag',
  'a lone %': '%',
  'bad escape %zz': 'a=%zz',
  'truncated escape': 'a=%E0%A4%A',
  'bracket name': 'a[]=1&a[b]=2',
  'semicolon separator': 'limit=1;offset=2',
  'plus as space': 'q=a+b',
  'encoded &': 'a=1%26b%3D2',
});

function queryCase(route: RestRoute, own: ValuePool, foreign: ValuePool): fc.Arbitrary<Labeled<string>> {
  const schema = route.query ? inputJsonSchema(route.query) : { type: 'object', properties: {} };
  const properties = Object.keys((schema.properties ?? {}) as object);
  const valid = validValue(schema, { root: schema, pool: own, depth: 0 }).map((v) =>
    Object.entries(isObject(v) ? v : {}).map(([k, val]): Pair => [k, typeof val === 'string' ? val : jsonText(val)]),
  );
  const anyName = fc.constantFrom(...properties, 'teamSimplyId', 'unknownParameter');
  const replaceValue = fc.tuple(fc.nat(), hostileText).map(([i, h]): QueryChange => (pairs) => {
    if (pairs.length === 0) return { label: `unknownParameter=${h.label}`, value: [['unknownParameter', h.value]] };
    const at = i % pairs.length;
    return { label: `${pairs[at]![0]}=${h.label}`, value: pairs.map((p, j): Pair => (j === at ? [p[0], h.value] : p)) };
  });
  const repeatName = fc.tuple(anyName, hostileText).map(([name, h]): QueryChange => (pairs) => ({ label: `${name} repeated with ${h.label}`, value: [...pairs, [name, h.value]] }));
  const teamIds = [...(own.teamSimplyId ?? []), ...(foreign.teamSimplyId ?? []), ''];
  const twice = fc.tuple(anyName, fc.constantFrom(...teamIds)).map(([name, v]): QueryChange => (pairs) => ({ label: `${name} given twice`, value: [[name, v], ...pairs, [name, v]] }));
  const otherTeam: QueryChange = (pairs) => ({ label: 'teamSimplyId of another team', value: [...pairs, ['teamSimplyId', foreign.teamSimplyId?.[0] ?? 'x']] });
  // longer than Node's 16 KiB limit on a request's head
  const longValue: QueryChange = (pairs) => ({ label: 'a 20 KB value', value: [...pairs, [properties[0] ?? 'q', 'v'.repeat(20_000)]] });
  const change = fc.oneof(
    { weight: 3, arbitrary: replaceValue },
    { weight: 3, arbitrary: repeatName },
    { weight: 2, arbitrary: twice },
    { weight: 2, arbitrary: fc.constant(otherTeam) },
    { weight: 1, arbitrary: fc.constant(longValue) },
  );
  const encode = (pairs: Pair[]) => pairs.map(([k, v]) => `${encodeLoosely(k)}=${encodeLoosely(v)}`).join('&');
  const withChanges = fc.tuple(valid, fc.array(change, { minLength: 1, maxLength: 2 })).map(([pairs, changes]) => {
    const labels: string[] = [];
    let current = pairs;
    for (const c of changes) {
      const step = c(current);
      labels.push(step.label);
      current = step.value;
    }
    return { label: `query: ${labels.join('; ')}`, value: encode(current) };
  });
  const odd = fc.tuple(valid, fc.constantFrom(...ODD_QUERY_PARTS)).map(([pairs, o]) => ({ label: `query: ${o.label}`, value: [encode(pairs), o.value].filter(Boolean).join('&') }));
  const plain = valid.map((pairs) => ({ label: '', value: encode(pairs) }));
  const chosen = route.query
    ? fc.oneof({ weight: 3, arbitrary: plain }, { weight: 4, arbitrary: withChanges }, { weight: 1, arbitrary: odd })
    : fc.oneof({ weight: 10, arbitrary: fc.constant({ label: '', value: '' }) }, { weight: 1, arbitrary: withChanges }, { weight: 1, arbitrary: odd });
  return chosen.map((q) => ({ label: q.label, value: q.value ? `?${q.value}` : '' }));
}

/** The requests of one route: `own` fills ids and secrets, `foreign` holds another team's. */
export function routeRequests(route: RestRoute, own: ValuePool, foreign: ValuePool): fc.Arbitrary<FuzzRequest> {
  const twist = fc.oneof({ weight: 40, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constantFrom(...CREDENTIAL_TWISTS) });
  return fc.tuple(pathCase(route, own, foreign), queryCase(route, own, foreign), bodyCase(route, own), twist).map(([path, query, body, t]) => ({
    method: route.method,
    path: `${path.value}${query.value}`,
    contentType: body.contentType,
    body: body.body,
    twist: t,
    intent: [path.label, query.label, body.label, t && `credential: ${t}`].filter(Boolean).join(' | ') || 'valid-shaped',
  }));
}

const HEAVY = labeled<unknown>({
  '900 KB string': 'h'.repeat(900_000),
  '900 KB of 3-byte characters': '€'.repeat(300_000),
  'array of 100,000 small numbers': Array.from({ length: 100_000 }, (_, i) => i % 10),
  'object with 40,000 keys': Object.fromEntries(Array.from({ length: 40_000 }, (_, i) => [`k${i}`, 1])),
  '64 nested arrays of 1,000 items each level': (() => {
    let v: unknown = Array.from({ length: 1_000 }, () => 0);
    for (let i = 0; i < 63; i++) v = [v, ...Array.from({ length: 200 }, () => 0)];
    return v;
  })(),
});

/** Requests that cost the server memory: a valid-shaped body with one huge value (under the limit), or one over it. */
export function heavyRequests(route: RestRoute, own: ValuePool, foreign: ValuePool): fc.Arbitrary<FuzzRequest> | null {
  if (!route.body) return null;
  const schema = inputJsonSchema(route.body);
  const valid = validValue(schema, { root: schema, pool: own, depth: 0 });
  const body = fc.oneof(
    { weight: 8, arbitrary: fc.tuple(valid, fc.constantFrom(...HEAVY), fc.nat()).map(([v, h, pick]) => mutate(v, { kind: 'replace', with: h }, pick)) },
    { weight: 1, arbitrary: fc.constant({ label: '1.1 MB string (over the limit)', value: { name: OVER_LIMIT } as unknown }) },
  );
  return fc.tuple(pathCase(route, own, foreign), body).map(([path, b]) => ({
    method: route.method,
    path: path.value,
    contentType: JSON_TYPE,
    body: jsonText(b.value),
    intent: `heavy: ${b.label}`,
  }));
}
