// GraphQL selections a module publishes for its own types, so the REST tables (and tests) select
// the same fields as the module that owns the type says, instead of hand-copied field strings.
//   export const TEAM_ROLE = fragment('TeamRoleFields', 'TeamRole', `id name …`);
//   operation`query TeamRole($id: String!) { teamRole(teamRoleSimplyId: $id) { ${TEAM_ROLE} } }`
// Interpolating a fragment writes its spread (`...TeamRoleFields`) and appends its definition
// (and the definitions of fragments it uses) to the document once.

export interface Fragment {
  readonly name: string;
  readonly onType: string;
  /** `fragment Name on Type { … }` of this fragment and every fragment it spreads */
  readonly definitions: readonly string[];
  toString(): string;
}

export type Part = string | number | boolean | Fragment;

function isFragment(part: Part): part is Fragment {
  return typeof part === 'object' && part !== null && 'definitions' in part;
}

/** Joins template parts, writing fragments as spreads; returns the text and the fragments used. */
function assemble(strings: TemplateStringsArray | readonly string[], parts: readonly Part[]): { text: string; definitions: string[] } {
  const definitions = new Set<string>();
  let text = strings[0] ?? '';
  parts.forEach((part, i) => {
    if (isFragment(part)) {
      for (const d of part.definitions) definitions.add(d);
      text += `...${part.name}`;
    } else {
      text += String(part);
    }
    text += strings[i + 1] ?? '';
  });
  return { text, definitions: [...definitions] };
}

/** A named selection on a type; the selection may itself interpolate other fragments. */
export function fragment(name: string, onType: string, selection: string | { strings: readonly string[]; parts: readonly Part[] }): Fragment {
  const { text, definitions } = typeof selection === 'string' ? { text: selection, definitions: [] } : assemble(selection.strings, selection.parts);
  const own = `fragment ${name} on ${onType} { ${text.trim()} }`;
  return { name, onType, definitions: [...definitions, own], toString: () => `...${name}` };
}

/** Template tag for a fragment body that uses other fragments: fragment('A', 'T', selection`x { ${B} }`). */
export function selection(strings: TemplateStringsArray, ...parts: Part[]): { strings: readonly string[]; parts: readonly Part[] } {
  return { strings: [...strings], parts };
}

/** Template tag for a whole operation: the text with every fragment it uses appended. */
export function operation(strings: TemplateStringsArray | readonly string[], ...parts: Part[]): string {
  const { text, definitions } = assemble(strings, parts);
  return [text.trim(), ...definitions].join('\n');
}

/** The paging facts of every `<Thing>Page` (src/app/graphql/page.ts). */
export const PAGINATION = fragment('PaginationFields', 'Pagination', 'total limit offset hasMore');
