// Applies design operations (design-operations.input.ts) to a draft, all or nothing: the
// operations run in order on a copy, each checked against the design as the ones before it left
// it; the first that does not fit stops the patch with a 400 naming `operations.<index>`, and the
// stored draft is untouched. What an operation brings in (components, attributes, styles) passes the
// same checks as a whole design (design-document.ts), and the result is checked as a whole again.
import type { ErrorDetail } from '../../app/errors.ts';
import { checkComponent, checkDesign, componentIdOf, type DesignComponent, type DesignDocument, type DesignStyleRule, walkComponents } from './design-document.ts';
import type { DesignOperation } from './design-operations.input.ts';
import type { InsertableLayout } from './saved-layouts.service.ts';
import { copyLayoutContent, isSyncedLayoutReference, layoutIdOf, mergeStyles, referenceComponent } from './synced-layout.ts';

interface Place {
  node: DesignComponent;
  /** the list holding it: the top level or its parent's children */
  siblings: DesignComponent[];
  parent: DesignComponent | null;
}

class PatchProblem extends Error {
  readonly detail: ErrorDetail;
  constructor(field: string, message: string) {
    super(message);
    this.detail = { field, message };
  }
}

function find(design: DesignDocument, id: string): Place | null {
  let found: Place | null = null;
  const visit = (list: DesignComponent[], parent: DesignComponent | null) => {
    for (const node of list) {
      if (found) return;
      if (componentIdOf(node) === id) found = { node, siblings: list, parent };
      else if (Array.isArray(node.components)) visit(node.components, node);
    }
  };
  visit(design.components, null);
  return found;
}

function contains(ancestor: DesignComponent, id: string): boolean {
  let hit = false;
  walkComponents(ancestor.components ?? [], (c) => (hit ||= componentIdOf(c) === id));
  return hit;
}

const ids = (design: DesignDocument): Set<string> => {
  const out = new Set<string>();
  walkComponents(design.components, (c) => {
    const id = componentIdOf(c);
    if (id) out.add(id);
  });
  return out;
};

/** A component brought in by an operation, checked as a design's would be, with ids given where missing; ids already used are refused. */
function incoming(raw: Record<string, unknown>, at: string, used: Set<string>): DesignComponent {
  const component = structuredClone(raw) as DesignComponent;
  const details: ErrorDetail[] = checkDesign({ components: [component], styles: [] }, at).map((d) => ({ ...d, field: d.field?.replace(`${at}.components.0`, at) }));
  if (details.length) throw new PatchProblem(details[0]!.field ?? at, details[0]!.message);
  walkComponents([component], (c, path) => {
    // a reference says which layout the page follows: only insertLayout makes one, for a layout of the site
    if (isSyncedLayoutReference(c)) throw new PatchProblem(`${at}${path.replace(/^components\.0/, '')}.type`, 'a synced layout is put on a page with insertLayout');
    const id = componentIdOf(c);
    if (id && used.has(id)) throw new PatchProblem(`${at}${path.replace(/^components\.0/, '')}.attributes.id`, `the design already has a component with the id ${id}`);
  });
  return component;
}

function childrenOf(design: DesignDocument, parentId: string | null, field: string): { list: DesignComponent[]; parent: DesignComponent | null } {
  if (parentId === null) return { list: design.components, parent: null };
  const place = find(design, parentId);
  if (!place) throw new PatchProblem(field, `no component with the id ${parentId}`);
  if (place.node.type === 'textnode') throw new PatchProblem(field, 'a text node holds no components');
  place.node.components ??= [];
  // GrapesJS may keep a component's inner HTML as a string; a component that gains children is a tree from then on
  if (!Array.isArray(place.node.components)) place.node.components = [];
  return { list: place.node.components, parent: place.node };
}

function at(list: DesignComponent[], index: number | undefined, field: string): number {
  if (index === undefined) return list.length;
  if (index > list.length) throw new PatchProblem(field, `must be at most ${list.length} (the number of components there)`);
  return index;
}

const sameRule = (rule: DesignStyleRule, selectors: string[], mediaText: string | undefined, state: string | undefined) =>
  JSON.stringify(rule.selectors.map((s) => (typeof s === 'string' ? s : s.name))) === JSON.stringify(selectors) && (rule.mediaText ?? '') === (mediaText ?? '') && (rule.state ?? '') === (state ?? '');

function apply(design: DesignDocument, op: DesignOperation, i: number, layouts: ReadonlyMap<string, InsertableLayout>): void {
  const f = (name: string) => `operations.${i}.${name}`;
  const target = (id: string) => {
    const place = find(design, id);
    if (!place) throw new PatchProblem(f('id'), `no component with the id ${id}`);
    return place;
  };
  switch (op.op) {
    case 'insert': {
      const component = incoming(op.component, f('component'), ids(design));
      const { list } = childrenOf(design, op.parentId, f('parentId'));
      list.splice(at(list, op.index, f('index')), 0, component);
      return;
    }
    case 'move': {
      const place = target(op.id);
      if (op.parentId === op.id || (op.parentId !== null && contains(place.node, op.parentId))) throw new PatchProblem(f('parentId'), 'a component cannot move into itself or a component inside it');
      place.siblings.splice(place.siblings.indexOf(place.node), 1);
      const { list } = childrenOf(design, op.parentId, f('parentId'));
      list.splice(at(list, op.index, f('index')), 0, place.node);
      return;
    }
    case 'remove': {
      const place = target(op.id);
      place.siblings.splice(place.siblings.indexOf(place.node), 1);
      return;
    }
    case 'replace': {
      const place = target(op.id);
      const used = ids(design);
      // the replaced component's ids are free again (it and its children go)
      walkComponents([place.node], (c) => {
        const id = componentIdOf(c);
        if (id) used.delete(id);
      });
      const raw = structuredClone(op.component) as DesignComponent;
      if (componentIdOf(raw) === undefined) raw.attributes = { ...(raw.attributes ?? {}), id: op.id };
      const component = incoming(raw as Record<string, unknown>, f('component'), used);
      place.siblings.splice(place.siblings.indexOf(place.node), 1, component);
      return;
    }
    case 'setAttributes': {
      const place = target(op.id);
      if ('id' in op.attributes) throw new PatchProblem(f('attributes.id'), 'a component keeps its id: replace it to change the id');
      const next: DesignComponent = { ...place.node, attributes: { ...(place.node.attributes ?? {}) } };
      for (const [name, value] of Object.entries(op.attributes)) {
        if (value === null) delete next.attributes![name];
        else next.attributes![name] = value;
      }
      const details: ErrorDetail[] = [];
      checkComponent(next, f('attributes'), details);
      if (details.length) throw new PatchProblem(details[0]!.field!.replace(`${f('attributes')}.attributes`, f('attributes')), details[0]!.message);
      place.node.attributes = next.attributes;
      return;
    }
    case 'setText': {
      const place = target(op.id);
      delete place.node.content;
      place.node.components = op.text === '' ? [] : [{ type: 'textnode', content: op.text }];
      return;
    }
    case 'setStyle': {
      const place = target(op.id);
      const style = { ...(place.node.style ?? {}) };
      for (const [property, value] of Object.entries(op.style)) {
        if (value === null) delete style[property];
        else style[property] = value;
      }
      const details: ErrorDetail[] = [];
      checkComponent({ ...place.node, style }, f('style'), details);
      const problem = details.find((d) => d.field?.startsWith(`${f('style')}.style`));
      if (problem) throw new PatchProblem(problem.field!.replace(`${f('style')}.style`, f('style')), problem.message);
      place.node.style = style;
      return;
    }
    case 'setClasses': {
      target(op.id).node.classes = [...op.classes];
      return;
    }
    case 'setRule': {
      let rule = design.styles.find((r) => sameRule(r, op.selectors, op.mediaText, op.state));
      if (!rule) {
        rule = { selectors: [...op.selectors], style: {}, ...(op.mediaText ? { mediaText: op.mediaText, atRuleType: 'media' } : {}), ...(op.state ? { state: op.state } : {}) };
        design.styles.push(rule);
      }
      for (const [property, value] of Object.entries(op.style)) {
        if (value === null) delete rule.style[property];
        else rule.style[property] = value;
      }
      if (Object.keys(rule.style).length === 0) design.styles.splice(design.styles.indexOf(rule), 1);
      const problem = checkDesign({ components: [], styles: design.styles }, 'design').find((d) => d.field?.includes('.styles.'));
      if (problem) throw new PatchProblem(f('style'), problem.message);
      return;
    }
    case 'insertLayout': {
      const layout = layouts.get(op.savedLayoutSimplyId);
      if (!layout) throw new PatchProblem(f('savedLayoutSimplyId'), `no saved layout ${op.savedLayoutSimplyId} on this website`);
      if (layout.designFormat !== 'GRAPESJS_WEB') throw new PatchProblem(f('savedLayoutSimplyId'), 'an email layout cannot be used on a web page');
      const { list } = childrenOf(design, op.parentId, f('parentId'));
      const index = at(list, op.index, f('index'));
      if (layout.syncMode === 'SYNCED') {
        let already = false;
        walkComponents(design.components, (c) => (already ||= isSyncedLayoutReference(c) && layoutIdOf(c) === op.savedLayoutSimplyId));
        if (already) throw new PatchProblem(f('savedLayoutSimplyId'), 'the page already shows this synced layout');
        const used = ids(design);
        let reference = referenceComponent(op.savedLayoutSimplyId);
        while (used.has(componentIdOf(reference)!)) reference = referenceComponent(op.savedLayoutSimplyId);
        list.splice(index, 0, reference);
        return;
      }
      const copy = copyLayoutContent(layout.content, ids(design));
      list.splice(index, 0, ...copy.components);
      mergeStyles(design.styles, copy.styles ?? []);
      return;
    }
    case 'removeRule': {
      const index = design.styles.findIndex((r) => sameRule(r, op.selectors, op.mediaText, op.state));
      if (index < 0) throw new PatchProblem(f('selectors'), 'no CSS rule with these selectors');
      design.styles.splice(index, 1);
      return;
    }
  }
}

/** The draft after `operations`, or the first problem (with the operation's index in its field). */
export function applyDesignOperations(draft: DesignDocument, operations: DesignOperation[], layouts: ReadonlyMap<string, InsertableLayout> = new Map()): { design: DesignDocument } | { problem: ErrorDetail } {
  const design = structuredClone(draft);
  try {
    operations.forEach((op, i) => apply(design, op, i, layouts));
  } catch (error) {
    if (error instanceof PatchProblem) return { problem: error.detail };
    throw error;
  }
  const whole = checkDesign(design, 'design');
  if (whole.length) return { problem: { field: 'operations', message: `the design after these operations breaks a rule: ${whole[0]!.message} (${whole[0]!.field})` } };
  return { design };
}
