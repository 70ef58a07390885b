// The JSON Schema of what a route's GraphQL operation returns, read from its selection against the
// schema: a REST response holds exactly the selected fields, so this is the response's real shape.
// Fields are collected the way GraphQL execution collects them (aliases as keys, fragments merged
// per response key), so a field selected twice through two fragments is described once.
import {
  getNamedType,
  isAbstractType,
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  Kind,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionNode,
  type SelectionSetNode,
} from 'graphql';
import type { JsonSchema } from './route.ts';

const SCALARS: Record<string, JsonSchema> = {
  String: { type: 'string' },
  ID: { type: 'string' },
  Int: { type: 'integer' },
  Float: { type: 'number' },
  Boolean: { type: 'boolean' },
  DateTime: { type: 'string', format: 'date-time' },
  JSON: {},
  LocalizedText: {
    anyOf: [{ type: 'string' }, { type: 'object', additionalProperties: { type: 'string' }, description: 'text by locale' }],
  },
};

interface Walk {
  schema: GraphQLSchema;
  fragments: ReadonlyMap<string, FragmentDefinitionNode>;
}

interface CollectedField {
  nodes: FieldNode[];
  parent: GraphQLCompositeType;
  /** true while every selection of the key is conditional (@include/@skip, or a narrower type condition) */
  conditional: boolean;
}

/** The schema of the operation's single top-level field, null stripped (respond.* read its properties). */
export function operationFieldSchema(schema: GraphQLSchema, document: DocumentNode): JsonSchema {
  const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  if (!operation) throw new Error('the document has no operation');
  const root = operation.operation === 'mutation' ? schema.getMutationType() : operation.operation === 'subscription' ? schema.getSubscriptionType() : schema.getQueryType();
  const field = operation.selectionSet.selections[0];
  if (!root || !field || field.kind !== Kind.FIELD) throw new Error(`operation ${operation.name?.value}: one top-level field expected`);
  const definition = root.getFields()[field.name.value];
  if (!definition) throw new Error(`operation ${operation.name?.value}: ${root.name}.${field.name.value} does not exist`);
  const fragments = new Map(
    document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]),
  );
  return nonNullSchema({ schema, fragments }, definition.type, field.selectionSet ? [field.selectionSet] : []);
}

function typeSchema(walk: Walk, type: GraphQLOutputType, selections: readonly SelectionSetNode[]): JsonSchema {
  if (isNonNullType(type)) return nonNullSchema(walk, type.ofType, selections);
  return nullable(nonNullSchema(walk, type, selections));
}

function nonNullSchema(walk: Walk, type: GraphQLOutputType, selections: readonly SelectionSetNode[]): JsonSchema {
  if (isNonNullType(type)) return nonNullSchema(walk, type.ofType, selections);
  if (isListType(type)) return { type: 'array', items: typeSchema(walk, type.ofType, selections) };
  if (isScalarType(type)) return { ...(SCALARS[type.name] ?? { description: `${type.name} (GraphQL scalar)` }) };
  if (isEnumType(type)) return { type: 'string', enum: type.getValues().map((v) => v.name) };
  return objectSchema(walk, getNamedType(type) as GraphQLCompositeType, selections);
}

function objectSchema(walk: Walk, parent: GraphQLCompositeType, selections: readonly SelectionSetNode[]): JsonSchema {
  const fields = new Map<string, CollectedField>();
  for (const set of selections) collectFields(walk, parent, set, false, fields);
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [key, collected] of fields) {
    const name = collected.nodes[0]!.name.value;
    if (name === '__typename') {
      properties[key] = typenameSchema(walk.schema, collected.parent);
      if (!collected.conditional) required.push(key);
      continue;
    }
    const definition = fieldDefinition(collected.parent, name);
    const subSelections = collected.nodes.flatMap((n) => (n.selectionSet ? [n.selectionSet] : []));
    const schema = typeSchema(walk, definition.type, subSelections);
    if (definition.description) schema.description = definition.description;
    if (definition.deprecationReason) schema.deprecated = true;
    properties[key] = schema;
    if (isNonNullType(definition.type) && !collected.conditional) required.push(key);
  }
  const schema: JsonSchema = { type: 'object', properties };
  if (required.length > 0) schema.required = required;
  return schema;
}

function collectFields(walk: Walk, parent: GraphQLCompositeType, set: SelectionSetNode, conditional: boolean, into: Map<string, CollectedField>): void {
  for (const selection of set.selections) {
    const maybeAbsent = conditional || hasCondition(selection);
    if (selection.kind === Kind.FIELD) {
      const key = selection.alias?.value ?? selection.name.value;
      const existing = into.get(key);
      if (existing) {
        existing.nodes.push(selection);
        existing.conditional &&= maybeAbsent;
      } else {
        into.set(key, { nodes: [selection], parent, conditional: maybeAbsent });
      }
      continue;
    }
    const fragment = selection.kind === Kind.INLINE_FRAGMENT ? selection : walk.fragments.get(selection.name.value);
    if (!fragment) throw new Error(`unknown fragment ${selection.kind === Kind.FRAGMENT_SPREAD ? selection.name.value : ''}`);
    const condition = fragment.typeCondition ? (walk.schema.getType(fragment.typeCondition.name.value) as GraphQLCompositeType) : parent;
    // a fragment on a narrower type (one member of a union or interface) applies to some objects only
    const always = condition === parent || (isObjectType(parent) && isAbstractType(condition) && walk.schema.isSubType(condition, parent));
    collectFields(walk, always ? parent : condition, fragment.selectionSet, maybeAbsent || !always, into);
  }
}

function hasCondition(selection: SelectionNode): boolean {
  return (selection.directives ?? []).some((d) => d.name.value === 'include' || d.name.value === 'skip');
}

function fieldDefinition(parent: GraphQLCompositeType, name: string): GraphQLField<unknown, unknown> {
  const definition = 'getFields' in parent ? parent.getFields()[name] : undefined;
  if (!definition) throw new Error(`${parent.name}.${name} does not exist`);
  return definition;
}

function typenameSchema(schema: GraphQLSchema, parent: GraphQLCompositeType): JsonSchema {
  if (isObjectType(parent)) return { type: 'string', const: parent.name };
  return { type: 'string', enum: schema.getPossibleTypes(parent).map((t) => t.name) };
}

/** `T | null`: a type list where the schema has a single type, else one more anyOf branch. */
function nullable(schema: JsonSchema): JsonSchema {
  if (Object.keys(schema).length === 0 || (Object.keys(schema).length === 1 && 'description' in schema)) return schema;
  if (typeof schema.type === 'string' && !('const' in schema)) {
    const result: JsonSchema = { ...schema, type: [schema.type, 'null'] };
    if (Array.isArray(schema.enum)) result.enum = [...schema.enum, null];
    return result;
  }
  if (Array.isArray(schema.anyOf)) return { ...schema, anyOf: [...schema.anyOf, { type: 'null' }] };
  return { anyOf: [schema, { type: 'null' }] };
}
