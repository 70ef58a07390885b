// What the model may answer as design components (a strict zod schema of the GrapesJS shape the
// studio saves), and how an answer becomes a draft: ids are always the platform's own (new ones),
// anything the design rules refuse is taken out (a script-like tag with everything inside it, an
// event handler, a javascript: link, unsafe CSS) and reported, and the rest is checked whole with
// checkDesign, so a draft is something a design PATCH will accept.
import { z } from 'zod';
import type { ErrorDetail } from '../../app/errors.ts';
import { checkComponent, checkDesign, type DesignComponent, type DesignDocument, type DesignStyleRule, newComponentId } from './design-document.ts';

export const DRAFT_LIMITS = { components: 400, depth: 12, rules: 200, text: 5000 } as const;

const text = z.string().max(DRAFT_LIMITS.text);
export const draftComponentShape: z.ZodType<DesignComponent> = z.lazy(() =>
  z.union([
    z.strictObject({ type: z.literal('textnode'), content: text }),
    z.strictObject({
      type: z.string().max(60).optional(),
      tagName: z.string().min(1).max(31).optional(),
      attributes: z.record(z.string().max(64), z.union([z.string().max(2000), z.number(), z.boolean()])).optional(),
      classes: z.array(z.string().max(100)).max(20).optional(),
      style: z.record(z.string().max(100), z.string().max(500)).optional(),
      components: z.array(draftComponentShape).max(100).optional(),
    }),
  ]),
);

export const draftRuleShape = z.strictObject({
  selectors: z.array(z.string().min(1).max(200)).min(1).max(10),
  style: z.record(z.string().max(100), z.string().max(500)),
  mediaText: z.string().max(200).optional(),
  state: z.string().max(30).optional(),
});

/** zod issues as details naming where in the answer */
export const issuesOf = (error: z.ZodError, prefix: string): ErrorDetail[] => error.issues.slice(0, 20).map((i) => ({ field: [prefix, ...i.path.map(String)].join('.'), message: i.message }));

/** Takes out of `components` what the design rules refuse (reported in `removed`); gives every component a new id. */
function sanitizeComponents(components: DesignComponent[], at: string, removed: ErrorDetail[], depth: number): DesignComponent[] {
  const kept: DesignComponent[] = [];
  components.forEach((c, i) => {
    const here = `${at}.${i}`;
    if (depth > DRAFT_LIMITS.depth) {
      removed.push({ field: here, message: `nested deeper than ${DRAFT_LIMITS.depth}: left out` });
      return;
    }
    if (c.type === 'textnode') return void kept.push({ type: 'textnode', content: String(c.content ?? '') });
    // the platform names components: an id from the model could collide with the page's
    const { id: _id, ...attributes } = c.attributes ?? {};
    const copy: DesignComponent = { ...c, attributes };
    const problems: ErrorDetail[] = [];
    checkComponent(copy, here, problems);
    if (problems.some((p) => p.field?.endsWith('.tagName') || p.field?.endsWith('.type'))) {
      removed.push({ field: here, message: `${c.tagName ?? c.type} is not allowed in a design: left out with what it holds` });
      return;
    }
    for (const p of problems) {
      const attribute = p.field?.startsWith(`${here}.attributes.`) ? p.field.slice(`${here}.attributes.`.length) : null;
      const property = p.field?.startsWith(`${here}.style.`) ? p.field.slice(`${here}.style.`.length) : null;
      if (attribute !== null) delete copy.attributes![attribute];
      else if (property !== null && copy.style) delete copy.style[property];
      removed.push({ field: p.field, message: `${p.message}: left out` });
    }
    copy.attributes = { ...copy.attributes, id: newComponentId() };
    if (Array.isArray(c.components)) copy.components = sanitizeComponents(c.components, `${here}.components`, removed, depth + 1);
    kept.push(copy);
  });
  return kept;
}

export interface SanitizedDraft {
  design: DesignDocument;
  /** what was taken out, and why */
  removed: ErrorDetail[];
  /** problems that remain (limits): the draft cannot be offered */
  problems: ErrorDetail[];
}

/** A model's components (and rules), already shaped by the zod schema, made fit for a design. */
export function sanitizeDraft(components: DesignComponent[], styles: DesignStyleRule[], field: string): SanitizedDraft {
  const removed: ErrorDetail[] = [];
  const design: DesignDocument = { components: sanitizeComponents(components, `${field}.components`, removed, 1), styles: [] };
  styles.forEach((rule, i) => {
    const probe: DesignDocument = { components: [], styles: [rule] };
    const problems = checkDesign(probe, `${field}.styles.${i}`);
    if (problems.length > 0) removed.push({ field: `${field}.styles.${i}`, message: `${problems[0]!.message}: rule left out` });
    else design.styles.push(rule);
  });
  let count = 0;
  const countAll = (cs: DesignComponent[]) => cs.forEach((c) => (count++, Array.isArray(c.components) && countAll(c.components)));
  countAll(design.components);
  const problems = checkDesign(design, field);
  if (count > DRAFT_LIMITS.components) problems.push({ field, message: `a draft has at most ${DRAFT_LIMITS.components} components` });
  if (design.styles.length > DRAFT_LIMITS.rules) problems.push({ field: `${field}.styles`, message: `a draft has at most ${DRAFT_LIMITS.rules} style rules` });
  if (design.components.length === 0) problems.push({ field: `${field}.components`, message: 'nothing usable is left' });
  return { design, removed, problems };
}

/** The text of a component: its text nodes and its children's, in order, spaces collapsed. */
export function textOf(c: DesignComponent): string {
  const parts: string[] = [];
  const visit = (x: DesignComponent) => {
    if (x.type === 'textnode' && typeof x.content === 'string') parts.push(x.content);
    for (const child of x.components ?? []) visit(child);
  };
  visit(c);
  return parts.join(' ').replace(/\s+/g, ' ').trim();
}
