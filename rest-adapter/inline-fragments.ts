// Rewrites an operation so that no fragment is left to resolve at run time: each spread becomes
// its selections in place (spliced into the parent where the fragment's type is the parent type,
// an inline fragment otherwise). graphql-js collects a selection set anew on every execution, and a named spread
// costs a lookup and a type check each time; routes select through the modules' fragments, so the
// REST path would pay that on every request. Done once per route, at start-up.
import {
  Kind,
  TypeInfo,
  visit,
  visitWithTypeInfo,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type InlineFragmentNode,
  type SelectionNode,
  type SelectionSetNode,
} from 'graphql';

export function inlineFragments(schema: GraphQLSchema, document: DocumentNode): DocumentNode {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  if (fragments.size === 0) return document;
  const typeInfo = new TypeInfo(schema);
  const inlined = visit(
    document,
    visitWithTypeInfo(typeInfo, {
      FragmentDefinition: () => null,
      FragmentSpread(node): InlineFragmentNode {
        const fragment = fragments.get(node.name.value)!;
        const sameType = typeInfo.getParentType()?.name === fragment.typeCondition.name.value;
        // the replacement is visited in turn, so spreads inside the fragment are inlined as well
        return {
          kind: Kind.INLINE_FRAGMENT,
          ...(sameType ? {} : { typeCondition: fragment.typeCondition }),
          directives: [...(node.directives ?? []), ...(fragment.directives ?? [])],
          selectionSet: fragment.selectionSet,
        };
      },
    }),
  );
  // an unconditional inline fragment is just its selections: splice them into the parent
  return visit(inlined, {
    SelectionSet: {
      leave(node): SelectionSetNode {
        const plain = (sel: SelectionNode) => sel.kind === Kind.INLINE_FRAGMENT && !sel.typeCondition && !sel.directives?.length;
        if (!node.selections.some(plain)) return node;
        return { ...node, selections: node.selections.flatMap((sel) => (plain(sel) ? (sel as InlineFragmentNode).selectionSet.selections : [sel])) };
      },
    },
  });
}
