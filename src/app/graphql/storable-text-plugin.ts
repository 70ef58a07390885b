// GraphQL's side of storable-text.ts: variables (over HTTP and graphql-ws) and the document's own
// string literals (`"\u0000"` is a legal GraphQL escape) are checked before execution, so text
// PostgreSQL cannot hold is a 400 VALIDATION_ERROR naming the argument, as on REST. No execute
// hook: one would make envelop wrap every execution, which a GraphQL get pays for.
import { GraphQLError, Kind, visit, type ASTNode, type DocumentNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { ErrorDetail } from '../errors.ts';
import { findUnstorableText } from '../storable-text.ts';

function refusal(detail: ErrorDetail, nodes?: ASTNode[]): GraphQLError {
  return new GraphQLError(`${detail.field ?? 'A string'} ${detail.message}`, {
    nodes,
    extensions: { code: 'VALIDATION_ERROR', status: 400, http: { status: 400 }, details: [detail] },
  });
}

/** the argument and input-object field names leading to a literal: `input.name` */
function literalPath(ancestors: readonly (ASTNode | readonly ASTNode[])[]): string {
  const names: string[] = [];
  for (const node of ancestors) {
    if (!('kind' in node)) continue;
    if (node.kind === Kind.ARGUMENT || node.kind === Kind.OBJECT_FIELD) names.push(node.name.value);
  }
  return names.join('.');
}

// Yoga hands out the same DocumentNode for the same query text (its parse cache): walk each once
const checkedDocuments = new WeakMap<DocumentNode, GraphQLError | null>();

/** the refusal of a document whose string literals hold unstorable text, or undefined */
export function unstorableLiteral(document: DocumentNode): GraphQLError | undefined {
  const known = checkedDocuments.get(document);
  if (known !== undefined) return known ?? undefined;
  const found = firstUnstorableLiteral(document);
  checkedDocuments.set(document, found ?? null);
  return found;
}

function firstUnstorableLiteral(document: DocumentNode): GraphQLError | undefined {
  let found: GraphQLError | undefined;
  visit(document, {
    StringValue(node, _key, parent, _path, ancestors) {
      const detail = findUnstorableText(node.value, literalPath(parent ? [...ancestors, parent] : ancestors));
      if (!detail) return undefined;
      found = refusal(detail, [node]);
      return false;
    },
  });
  return found;
}

/** the refusal of variables holding unstorable text, or undefined; graphql-ws operations call it too */
export function unstorableVariablesError(variables: unknown): GraphQLError | undefined {
  const detail = findUnstorableText(variables);
  return detail ? refusal(detail) : undefined;
}

/** Variables of GraphQL over HTTP (graphql-ws operations are checked in attachSubscriptions), and every document's literals. */
export function useStorableText(): Plugin {
  return {
    onParams({ params }) {
      const error = unstorableVariablesError(params.variables);
      if (error) throw error;
    },
    onParse() {
      return ({ result, replaceParseResult }) => {
        if (!result || result instanceof Error || !('kind' in result)) return;
        const error = unstorableLiteral(result as DocumentNode);
        if (error) replaceParseResult(error);
      };
    },
  };
}
