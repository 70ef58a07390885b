// Pothos gives every exposed field (`t.exposeString('name')`) graphql-js's defaultFieldResolver.
// graphql-jit reads a field without a resolver as a plain property in its generated code, but
// calls any resolver it is given, the default one too: a closure per value, a resolve-info object
// and promise checks, for what is a property read. Both executors read a field that has no
// resolver the same way (graphql-js falls back to its default resolver), so removing the default
// one changes no answer. It only differs for a property holding a function, which graphql-js
// would call and graphql-jit would not; no exposed property here holds one.
import { defaultFieldResolver, isObjectType, type GraphQLSchema } from 'graphql';

/** Drops the default resolver from every field that has it; returns how many. */
export function readPropertiesDirectly(schema: GraphQLSchema): number {
  let count = 0;
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      if (field.resolve !== defaultFieldResolver) continue;
      field.resolve = undefined;
      count++;
    }
  }
  return count;
}
