// The GraphQL schema: the scalars, then every module of the list registers its types and fields
// on the one builder (importing the list imports each module's `<area>.schema.ts`).
import '../app/graphql/scalars.ts';
import { builder } from '../app/builder.ts';
import { readPropertiesDirectly } from '../app/graphql/plain-properties.ts';
import type { RegisteredModule } from '../../rest-adapter/route.ts';
import { modules } from './modules.ts';

function buildSchema(registered: readonly RegisteredModule[]) {
  // a REST table runs GraphQL operations: its module must contribute schema
  const withoutSchema = registered.filter((m) => m.routes.length > 0 && !m.schema).map((m) => m.name);
  if (withoutSchema.length > 0) throw new Error(`modules with REST routes but no schema: ${withoutSchema.join(', ')}`);
  const schema = builder.toSchema({ sortSchema: true });
  readPropertiesDirectly(schema);
  return schema;
}

export const schema = buildSchema(modules);
