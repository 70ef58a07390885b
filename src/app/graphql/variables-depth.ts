// GraphQL variables are client JSON like a REST body: nested deeper than MAX_JSON_DEPTH they are
// refused (400 VALIDATION_ERROR) before input coercion walks them recursively (json-depth.ts).
import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../http/json-depth.ts';

/** the refusal of variables nested too deep, or undefined; graphql-ws operations call it too */
export function variablesDepthError(variables: unknown): GraphQLError | undefined {
  if (!variables || !nestsDeeperThan(variables)) return undefined;
  return new GraphQLError(`The variables nest deeper than ${MAX_JSON_DEPTH} levels`, {
    extensions: { code: 'VALIDATION_ERROR', status: 400, http: { status: 400 }, details: [{ field: 'variables', message: `nests deeper than ${MAX_JSON_DEPTH} levels` }] },
  });
}

export function useVariablesDepthLimit(): Plugin {
  return {
    onParams({ params }) {
      const error = variablesDepthError(params.variables);
      if (error) throw error;
    },
  };
}
