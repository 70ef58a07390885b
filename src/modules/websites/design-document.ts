// A page's design (docs/api/websites.md "Designs"): a GrapesJS document of the page's component
// tree and its CSS rules, `{ components, styles }`, as the studio's editor saves them
// (`editor.getComponents()` and `editor.getStyle()` as JSON). It is checked on the way in, so every
// stored design is one the renderer and the patch language can trust:
//
//   - each component (but text nodes) has a stable id, `attributes.id` (GrapesJS's own component
//     id); one is given to any component that comes without, and ids are unique within the design;
//   - tags, attribute names and nesting are bounded, and nothing that runs or reaches out is
//     accepted: no script-like tag, no event-handler attribute, no javascript:/vbscript:/data: URL
//     outside images (the renderer sanitizes again, so a design written before a rule tightened
//     still renders safely);
//   - sizes are bounded (components, depth, text, bytes).
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { ErrorDetail } from '../../app/errors.ts';

export const DESIGN_LIMITS = {
  components: 5000,
  depth: 40,
  attributes: 50,
  attributeValue: 10_000,
  text: 100_000,
  classes: 50,
  styles: 5000,
  declarations: 200,
  bytes: 2 * 1024 * 1024,
} as const;

export interface DesignComponent {
  type?: string;
  tagName?: string;
  attributes?: Record<string, string | number | boolean>;
  classes?: (string | { name: string })[];
  components?: DesignComponent[];
  content?: string;
  style?: Record<string, string>;
  [key: string]: unknown;
}

export interface DesignStyleRule {
  selectors: (string | { name: string; type?: number })[];
  style: Record<string, string>;
  mediaText?: string;
  state?: string;
  atRuleType?: string;
  [key: string]: unknown;
}

export interface DesignDocument {
  components: DesignComponent[];
  styles: DesignStyleRule[];
}

export const emptyDesign = (): DesignDocument => ({ components: [], styles: [] });

/** Tags a design may not contain: they run code, load other documents, or change the page around them. */
export const FORBIDDEN_TAGS: ReadonlySet<string> = new Set([
  'script', 'noscript', 'iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'portal', 'base', 'link', 'meta', 'template',
  'slot', 'style', 'title', 'head', 'html', 'body', 'math', 'xml', 'import', 'param',
]);
/** GrapesJS component types that stand for such tags (a type is not a tag: `link` is an anchor) */
const FORBIDDEN_TYPES: ReadonlySet<string> = new Set(['script', 'noscript', 'iframe', 'frame', 'object', 'embed', 'applet', 'portal']);
const TAG = /^[a-z][a-z0-9-]{0,30}$/;
const ATTRIBUTE = /^[a-zA-Z_:][-a-zA-Z0-9_:.]{0,60}$/;
const COMPONENT_ID = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
/** attributes whose value is a URL a visitor's browser opens or loads */
export const URL_ATTRIBUTES: ReadonlySet<string> = new Set(['href', 'src', 'srcset', 'action', 'formaction', 'poster', 'xlink:href', 'cite', 'background', 'data', 'ping']);
/** attributes that are never accepted, whatever their value */
const FORBIDDEN_ATTRIBUTES: ReadonlySet<string> = new Set(['srcdoc', 'formaction', 'action', 'ping', 'is', 'xmlns', 'background', 'dynsrc', 'lowsrc']);
/** characters browsers ignore inside a scheme ("java\tscript:", "&#x0A;") */
const URL_NOISE = /[\u0000-\u0020\u007f-\u00a0\u1680\u180e\u2000-\u2029\u205f\u3000\ufeff]/g;
const EMBEDDED_RASTER = /^data:image\/(?:png|jpeg|gif|webp);base64,[a-z0-9+/=\s]*$/i;

/** Whether a link or source may keep `value`: http(s), mailto:, tel:, relative, #anchor; raster data: images in img src only. */
export function safeUrl(value: string, tag: string, attribute: string): boolean {
  const compact = value.replace(URL_NOISE, '').toLowerCase();
  if (attribute === 'src' && tag === 'img' && EMBEDDED_RASTER.test(value.trim())) return true;
  const scheme = /^([a-z][a-z0-9+.-]*):/.exec(compact);
  return scheme === null || ['http', 'https', 'mailto', 'tel'].includes(scheme[1]!);
}

/** CSS that can run code or reach out where a design may not: expression(), behaviors, javascript: URLs, @import. */
export function unsafeCssValue(value: string): boolean {
  const compact = value.replace(/\\[0-9a-f]{1,6}\s?/gi, 'x').replace(/\/\*[\s\S]*?\*\//g, '').toLowerCase();
  return /expression\s*\(|javascript:|vbscript:|-moz-binding|behavior\s*:|@import|url\s*\(\s*['"]?\s*(?:javascript|vbscript|data:(?!image\/(?:png|jpeg|gif|webp)))/.test(compact);
}

const scalar = z.union([z.string().max(DESIGN_LIMITS.attributeValue), z.number(), z.boolean()]);
const declarations = z.record(z.string().max(100), z.string().max(DESIGN_LIMITS.attributeValue)).refine((d) => Object.keys(d).length <= DESIGN_LIMITS.declarations, `at most ${DESIGN_LIMITS.declarations} declarations`);

const componentShape: z.ZodType<DesignComponent> = z.lazy(() =>
  z
    .object({
      type: z.string().max(60).optional(),
      tagName: z.string().max(31).optional(),
      attributes: z.record(z.string(), scalar).optional(),
      classes: z.array(z.union([z.string().max(200), z.looseObject({ name: z.string().max(200) })])).max(DESIGN_LIMITS.classes).optional(),
      components: z.array(componentShape).optional(),
      content: z.string().max(DESIGN_LIMITS.text).optional(),
      style: declarations.optional(),
    })
    .loose(),
);

const ruleShape: z.ZodType<DesignStyleRule> = z
  .object({
    selectors: z.union([z.string().max(500).transform((s) => [s]), z.array(z.union([z.string().max(500), z.looseObject({ name: z.string().max(200), type: z.number().optional() })])).max(20)]),
    style: declarations,
    mediaText: z.string().max(500).optional(),
    state: z.string().max(60).optional(),
    atRuleType: z.string().max(60).optional(),
  })
  .loose() as never;

export const designShape = z.strictObject({
  components: z.array(componentShape, { message: 'must be an array of components' }),
  styles: z.array(ruleShape, { message: 'must be an array of style rules' }).max(DESIGN_LIMITS.styles, `at most ${DESIGN_LIMITS.styles} style rules`).default([]),
});

export const newComponentId = (): string => `c${randomBytes(5).toString('hex')}`;

export const componentIdOf = (c: DesignComponent): string | undefined => {
  const id = c.attributes?.id;
  return typeof id === 'string' ? id : undefined;
};

/**
 * The problems of one component (not its children), `at` naming it in details. Gives the
 * component an id when it has none.
 */
export function checkComponent(c: DesignComponent, at: string, details: ErrorDetail[]): void {
  const tag = (c.tagName ?? '').toLowerCase();
  if (c.tagName !== undefined && (!TAG.test(tag) || FORBIDDEN_TAGS.has(tag))) details.push({ field: `${at}.tagName`, message: `${c.tagName} is not allowed in a design` });
  if (c.type !== undefined && FORBIDDEN_TYPES.has(c.type.toLowerCase())) details.push({ field: `${at}.type`, message: `${c.type} is not allowed in a design` });
  const attributes = c.attributes ?? {};
  if (Object.keys(attributes).length > DESIGN_LIMITS.attributes) details.push({ field: `${at}.attributes`, message: `at most ${DESIGN_LIMITS.attributes} attributes` });
  for (const [name, value] of Object.entries(attributes)) {
    const lower = name.toLowerCase();
    if (!ATTRIBUTE.test(name)) details.push({ field: `${at}.attributes.${name}`, message: 'is not a valid attribute name' });
    else if (lower.startsWith('on')) details.push({ field: `${at}.attributes.${name}`, message: 'event handlers are not allowed in a design' });
    else if (FORBIDDEN_ATTRIBUTES.has(lower)) details.push({ field: `${at}.attributes.${name}`, message: `${name} is not allowed in a design` });
    else if (lower === 'style' && typeof value === 'string' && unsafeCssValue(value)) details.push({ field: `${at}.attributes.style`, message: 'this CSS is not allowed in a design' });
    else if (URL_ATTRIBUTES.has(lower) && typeof value === 'string' && !value.split(',').every((part) => safeUrl(part.trim().split(/\s+/)[0] ?? '', tag || 'div', lower))) {
      details.push({ field: `${at}.attributes.${name}`, message: 'must be an http(s), mailto:, tel:, relative or #anchor link' });
    }
  }
  if (attributes.id !== undefined && (typeof attributes.id !== 'string' || !COMPONENT_ID.test(attributes.id))) {
    details.push({ field: `${at}.attributes.id`, message: 'a component id is 1-64 letters, digits, _ or -, starting with a letter' });
  }
  for (const [property, value] of Object.entries(c.style ?? {})) if (unsafeCssValue(value)) details.push({ field: `${at}.style.${property}`, message: 'this CSS is not allowed in a design' });
  // a text node is text, not an element: it has no attributes to carry an id
  if (attributes.id === undefined && c.type !== 'textnode') c.attributes = { ...attributes, id: newComponentId() };
}

/** Visits every component depth-first with its path in the document and its depth (1 for top-level). */
export function walkComponents(components: DesignComponent[], visit: (c: DesignComponent, at: string, depth: number) => void, at = 'components', depth = 1): void {
  components.forEach((c, i) => {
    visit(c, `${at}.${i}`, depth);
    if (Array.isArray(c.components)) walkComponents(c.components, visit, `${at}.${i}.components`, depth + 1);
  });
}

/** Checks a whole design: shape, each component, unique ids, limits. Returns the details (empty: fine); `field` prefixes them. */
export function checkDesign(design: DesignDocument, field: string): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  const seen = new Set<string>();
  let count = 0;
  walkComponents(design.components, (c, at, depth) => {
    count++;
    if (depth > DESIGN_LIMITS.depth) details.push({ field: `${field}.${at}`, message: `components nest at most ${DESIGN_LIMITS.depth} deep` });
    checkComponent(c, `${field}.${at}`, details);
    const id = componentIdOf(c);
    if (id !== undefined) {
      if (seen.has(id)) details.push({ field: `${field}.${at}.attributes.id`, message: `another component has the id ${id}` });
      seen.add(id);
    }
  });
  if (count > DESIGN_LIMITS.components) details.push({ field: `${field}.components`, message: `at most ${DESIGN_LIMITS.components} components` });
  design.styles.forEach((rule, i) => {
    for (const [property, value] of Object.entries(rule.style)) if (unsafeCssValue(value)) details.push({ field: `${field}.styles.${i}.style.${property}`, message: 'this CSS is not allowed in a design' });
    if (rule.atRuleType && !['media', 'font-face', 'keyframes', 'supports'].includes(rule.atRuleType)) details.push({ field: `${field}.styles.${i}.atRuleType`, message: 'must be media, font-face, keyframes or supports' });
  });
  if (Buffer.byteLength(JSON.stringify(design)) > DESIGN_LIMITS.bytes) details.push({ field, message: `a design is at most ${DESIGN_LIMITS.bytes / 1024 / 1024} MiB of JSON` });
  return details;
}

/** Parses and checks a design given by a client (400 details naming `field`), with ids given to components that had none. */
export function parseDesign(value: unknown, field: string): { design: DesignDocument; details: ErrorDetail[] } {
  const parsed = designShape.safeParse(value);
  if (!parsed.success) {
    return {
      design: emptyDesign(),
      details: parsed.error.issues.slice(0, 20).map((issue) => ({ field: [field, ...issue.path.map(String)].join('.'), message: issue.message })),
    };
  }
  const design = parsed.data as DesignDocument;
  return { design, details: checkDesign(design, field) };
}
