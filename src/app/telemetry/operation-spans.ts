// A span for each GraphQL query or mutation, over HTTP (a Yoga plugin) and for each REST route's
// in-process operation: `<type> <name>` with the operation's type and name, and the error codes
// of a failed result. Never the document (it can hold literal values), the variables or the
// result. Subscriptions, which live as long as their socket, get none. Loaded only with tracing on.
import { context, type Span } from '@opentelemetry/api';
import { getOperationAST, type DocumentNode, type ExecutionArgs, type ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { CompiledOperation } from '../graphql/compiled-execution.ts';
import { markFailed, withinSpan, type SpanKit } from './span-kit.ts';

// (incubating in the semantic conventions: named here rather than imported from their incubating entry)
const ATTR_GRAPHQL_OPERATION_TYPE = 'graphql.operation.type';
const ATTR_GRAPHQL_OPERATION_NAME = 'graphql.operation.name';

interface OperationFacts {
  type: string;
  name: string | undefined;
  spanName: string;
}

// documents are parsed once and reused (Yoga's parser cache, the REST executor's prepared ones)
const factsByDocument = new WeakMap<DocumentNode, Map<string, OperationFacts | null>>();

function operationFacts(document: DocumentNode, operationName: string | null | undefined): OperationFacts | null {
  let byName = factsByDocument.get(document);
  if (!byName) factsByDocument.set(document, (byName = new Map()));
  const key = operationName ?? '';
  let facts = byName.get(key);
  if (facts === undefined) {
    const operation = getOperationAST(document, operationName);
    const name = operation?.name?.value;
    facts = operation ? { type: operation.operation, name, spanName: name ? `${operation.operation} ${name}` : operation.operation } : null;
    byName.set(key, facts);
  }
  return facts;
}

async function inOperationSpan(kit: SpanKit, facts: OperationFacts, run: () => Promise<ExecutionResult>): Promise<ExecutionResult> {
  const span = kit.tracer.startSpan(facts.spanName, {
    attributes: { [ATTR_GRAPHQL_OPERATION_TYPE]: facts.type, ...(facts.name ? { [ATTR_GRAPHQL_OPERATION_NAME]: facts.name } : {}) },
  });
  return withinSpan(span, context.active(), async () => {
    const result = await run();
    noteErrors(span, result);
    return result;
  });
}

/** A failed result's documented codes (`extensions.code`), never its messages. */
function noteErrors(span: Span, result: ExecutionResult): void {
  if (!result.errors?.length) return;
  const codes = [...new Set(result.errors.map((e) => (typeof e.extensions?.code === 'string' ? e.extensions.code : 'GRAPHQL_ERROR')))];
  markFailed(span, codes.join(','));
}

/** The Yoga plugin; listed after useCompiledExecution, so the span covers the compiled run. */
export function graphqlOperationPlugin(kit: SpanKit): Plugin {
  return {
    onExecute({ args, executeFn, setExecuteFn }) {
      const facts = operationFacts(args.document, args.operationName);
      if (!facts || facts.type === 'subscription') return;
      setExecuteFn(((a: ExecutionArgs) => inOperationSpan(kit, facts, async () => (await executeFn(a)) as ExecutionResult)) as typeof executeFn);
    },
  };
}

export function restOperation(kit: SpanKit) {
  return (document: DocumentNode, compiled: CompiledOperation, ctx: unknown, variables: Record<string, unknown>): Promise<ExecutionResult> => {
    const facts = operationFacts(document, undefined);
    const run = () => compiled(undefined, ctx, variables);
    return facts ? inOperationSpan(kit, facts, run) : run();
  };
}
