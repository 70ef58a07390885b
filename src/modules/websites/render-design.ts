// A page design (design-document.ts) as HTML and CSS, on the server, without a browser: the same
// markup GrapesJS's own export (`editor.getHtml()`, `editor.getCss()`) gives for the component types
// a site uses, but built only from what is safe to serve:
//
//   - a component becomes its element (`tagName`, else the type's tag: text → div, image → img,
//     link → a, table/row/cell → table/tr/td), with its id, classes and attributes;
//   - a text node's content is text (escaped); a text component's `content` string is markup,
//     sanitized on its own (render-sanitize.ts) so it cannot close the elements around it;
//   - a video is never an iframe: it becomes a link to the video, with its poster when it has one;
//   - a data view (`type: "data-view"`) becomes the table the caller's `dataView` renders;
//   - a synced layout (`type: "synced-layout"`, synced-layout.ts) is its element holding the
//     layout's current components, as the caller's `syncedLayout` gives them; its rules come before
//     the design's own (so the page's rules win); a layout inside a layout is not expanded;
//   - inline styles become CSS rules by id (`#c1a2…{…}`), as GrapesJS does with avoidInlineStyle,
//     so the page needs no inline style attribute (its Content-Security-Policy allows none);
//   - what a design may not hold (design-document.ts) is dropped here too, for designs stored
//     before a rule tightened: forbidden tags and types with their children, event handlers,
//     unsafe URLs, unsafe CSS declarations, selectors and at-rules that could break out.
//
// The output depends on the design alone (no clock, no random ids): the same design gives the same
// bytes.
import { escapeHtml } from '../../app/html-escape.ts';
import { unsafeCss } from '../../app/sanitize/unsafe-css.ts';
import { type DesignComponent, type DesignDocument, type DesignStyleRule, FORBIDDEN_TAGS, safeUrl, unsafeCssValue, URL_ATTRIBUTES } from './design-document.ts';

/** Renders a data-view component's table (trusted markup, escaped by the renderer), or '' when it has none. */
export type DataViewRenderer = (dataViewSimplyId: string, componentId: string | undefined) => string;

export interface DesignRenderOptions {
  /** markup the final sanitizer will see: a text component's `content` */
  sanitizeFragment(html: string): string;
  dataView?: DataViewRenderer;
  /** the current content of a SYNCED layout of the site, or null (the reference renders empty) */
  syncedLayout?: (savedLayoutSimplyId: string) => DesignDocument | null;
}

export interface RenderedDesign {
  html: string;
  css: string;
  /** the data views the design shows (their ids), for the page's freshness */
  dataViews: string[];
}

const VOID_TAGS: ReadonlySet<string> = new Set(['area', 'br', 'col', 'hr', 'img', 'wbr']);
const TYPE_TAGS: Readonly<Record<string, string>> = {
  text: 'div',
  textnode: '',
  image: 'img',
  link: 'a',
  label: 'label',
  table: 'table',
  thead: 'thead',
  tbody: 'tbody',
  tfoot: 'tfoot',
  row: 'tr',
  cell: 'td',
};
/** types whose element runs, loads or submits something: dropped with their children */
const DROPPED_TYPES: ReadonlySet<string> = new Set([
  'script', 'noscript', 'iframe', 'frame', 'object', 'embed', 'applet', 'portal', 'svg', 'svg-in', 'comment', 'map',
  'form', 'input', 'textarea', 'select', 'option', 'checkbox', 'radio', 'button',
]);
/** tags that are not content of a served page: frames, forms and their controls, SVG and MathML, media players */
const DROPPED_TAGS: ReadonlySet<string> = new Set([
  ...FORBIDDEN_TAGS, 'svg', 'form', 'input', 'textarea', 'select', 'option', 'optgroup', 'button', 'datalist', 'keygen', 'output',
  'dialog', 'audio', 'video', 'source', 'track', 'canvas', 'picture', 'frame',
]);
const TAG = /^[a-z][a-z0-9-]{0,30}$/;
const ATTRIBUTE = /^[a-zA-Z_:][-a-zA-Z0-9_:.]{0,60}$/;
const DROPPED_ATTRIBUTES: ReadonlySet<string> = new Set(['srcdoc', 'formaction', 'action', 'ping', 'is', 'xmlns', 'background', 'dynsrc', 'lowsrc', 'style', 'class', 'id', 'contenteditable']);
const IDENT = /^-?[A-Za-z_][A-Za-z0-9_-]{0,199}$/;
const PROPERTY = /^(?:--[A-Za-z0-9_-]{1,100}|-?[a-z][a-z0-9-]{0,99})$/;
/** extra selectors (GrapesJS selectorsAdd): plain selector syntax, no block, string escape or at-rule */
const RAW_SELECTOR = /^[A-Za-z0-9_\s.#:>+~*()[\]="'^$|,-]{1,500}$/;
const STATE = /^[a-z-]{1,40}(?:\([a-z0-9+\- ]{0,20}\))?$/;
const CONDITION = /^[A-Za-z0-9\s().:,_-]{0,300}$/;
const VIDEO_ID = /^[A-Za-z0-9_-]{4,32}$/;

function componentTag(c: DesignComponent): string | null {
  const type = (c.type ?? '').toLowerCase();
  if (DROPPED_TYPES.has(type)) return null;
  const tag = (c.tagName ?? TYPE_TAGS[type] ?? 'div').toLowerCase();
  if (!TAG.test(tag) || DROPPED_TAGS.has(tag)) return null;
  return tag;
}

function scalar(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

function urlAllowed(value: string, tag: string, name: string): boolean {
  return value.split(',').every((part) => safeUrl(part.trim().split(/\s+/)[0] ?? '', tag, name));
}

/** ` name="value"` of each attribute a served element may keep, in the design's order. */
function attributeText(tag: string, c: DesignComponent, extra: Record<string, unknown> = {}): string {
  const out: string[] = [];
  const id = scalar(c.attributes?.id);
  if (id !== null && IDENT.test(id)) out.push(` id="${escapeHtml(id)}"`);
  const classes = classNames(c);
  if (classes.length) out.push(` class="${escapeHtml(classes.join(' '))}"`);
  for (const [name, value] of Object.entries({ ...(c.attributes ?? {}), ...extra })) {
    const lower = name.toLowerCase();
    if (!ATTRIBUTE.test(name) || lower.startsWith('on') || DROPPED_ATTRIBUTES.has(lower) || lower.startsWith('data-gjs')) continue;
    if (value === true) {
      out.push(` ${lower}`);
      continue;
    }
    const text = scalar(value);
    if (text === null) continue;
    if (URL_ATTRIBUTES.has(lower) && !urlAllowed(text, tag, lower)) continue;
    out.push(` ${lower}="${escapeHtml(text)}"`);
  }
  return out.join('');
}

function classNames(c: DesignComponent): string[] {
  return (c.classes ?? []).map((k) => (typeof k === 'string' ? k : k.name)).filter((k) => IDENT.test(k));
}

/** A video as a link to it (with its poster): an embedded player would be a frame the page cannot allow. */
function videoLink(c: DesignComponent, attributes: Record<string, unknown>): string {
  const provider = typeof c.provider === 'string' ? c.provider : 'so';
  const videoId = typeof c.videoId === 'string' && VIDEO_ID.test(c.videoId) ? c.videoId : null;
  const src = scalar(c.src) ?? scalar(attributes.src) ?? '';
  const href =
    videoId && provider.startsWith('yt') ? `https://www.youtube.com/watch?v=${videoId}` : videoId && provider === 'vi' ? `https://vimeo.com/${videoId}` : src;
  const poster = scalar(attributes.poster);
  const title = scalar(attributes.title) ?? 'Watch the video';
  const id = scalar(attributes.id);
  const idText = id !== null && IDENT.test(id) ? ` id="${escapeHtml(id)}"` : '';
  const image = poster !== null && safeUrl(poster, 'img', 'src') ? `<img src="${escapeHtml(poster)}" alt="">` : '';
  if (!href || !/^https?:\/\//i.test(href) || !safeUrl(href, 'a', 'href')) return `<p${idText} class="svc-video">${image}<span>${escapeHtml(title)}</span></p>`;
  return `<a${idText} class="svc-video" href="${escapeHtml(href)}">${image}<span>${escapeHtml(title)}</span></a>`;
}

class DesignWriter {
  readonly html: string[] = [];
  readonly idRules: string[] = [];
  readonly dataViews: string[] = [];
  readonly layoutRules: DesignStyleRule[] = [];
  private inLayout = false;
  private readonly options: DesignRenderOptions;
  constructor(options: DesignRenderOptions) {
    this.options = options;
  }

  components(list: DesignComponent[] | undefined, depth: number): void {
    if (!Array.isArray(list) || depth > 64) return;
    for (const c of list) this.component(c, depth);
  }

  component(c: DesignComponent, depth: number): void {
    if (!c || typeof c !== 'object') return;
    const type = (c.type ?? '').toLowerCase();
    if (type === 'textnode') {
      if (typeof c.content === 'string') this.html.push(escapeHtml(c.content));
      return;
    }
    if (type === 'wrapper') return this.components(c.components, depth + 1);
    this.inlineStyle(c);
    if (type === 'video') {
      this.html.push(videoLink(c, { ...(c.attributes ?? {}) }));
      return;
    }
    if (type === 'data-view') {
      const viewId = scalar(c.attributes?.['data-view-id']);
      const id = scalar(c.attributes?.id) ?? undefined;
      if (viewId !== null) {
        this.dataViews.push(viewId);
        this.html.push(this.options.dataView?.(viewId, id) ?? '');
      }
      return;
    }
    const tag = componentTag(c);
    if (tag === null) return;
    if (type === 'synced-layout') return this.syncedLayout(c, tag, depth);
    // an image's source is a property of the component in GrapesJS's JSON, not an attribute
    const extra = type === 'image' && c.attributes?.src === undefined && typeof c.src === 'string' ? { src: c.src } : {};
    this.html.push(`<${tag}${attributeText(tag, c, extra)}>`);
    if (VOID_TAGS.has(tag)) return;
    if (typeof c.content === 'string' && c.content !== '') this.html.push(this.options.sanitizeFragment(c.content));
    this.components(c.components, depth + 1);
    this.html.push(`</${tag}>`);
  }

  private syncedLayout(c: DesignComponent, tag: string, depth: number): void {
    const layoutId = scalar(c.attributes?.['data-layout-id']);
    const content = layoutId !== null && !this.inLayout ? (this.options.syncedLayout?.(layoutId) ?? null) : null;
    this.html.push(`<${tag}${attributeText(tag, c)}>`);
    if (content && Array.isArray(content.components)) {
      this.inLayout = true;
      this.components(content.components, depth + 1);
      this.inLayout = false;
      if (Array.isArray(content.styles)) this.layoutRules.push(...content.styles);
    }
    this.html.push(`</${tag}>`);
  }

  private inlineStyle(c: DesignComponent): void {
    const id = scalar(c.attributes?.id);
    if (id === null || !IDENT.test(id)) return;
    const declarations = { ...parseStyleAttribute(c.attributes?.style), ...(c.style ?? {}) };
    const body = declarationText(declarations);
    if (body) this.idRules.push(`#${id}{${body}}`);
  }
}

function parseStyleAttribute(value: unknown): Record<string, string> {
  if (typeof value !== 'string') return {};
  const out: Record<string, string> = {};
  for (const part of value.split(';')) {
    const colon = part.indexOf(':');
    if (colon > 0) out[part.slice(0, colon).trim().toLowerCase()] = part.slice(colon + 1).trim();
  }
  return out;
}

/** A declaration may stay when nothing in it could end the rule, run, or load beyond https and embedded rasters. */
export function safeDeclaration(property: string, value: string): boolean {
  if (!PROPERTY.test(property) || typeof value !== 'string' || value.trim() === '') return false;
  if (/[{};<>]/.test(value)) return false;
  return !unsafeCssValue(value) && !unsafeCss(value, 'https-or-embedded-raster');
}

function declarationText(style: Record<string, unknown>): string {
  return Object.entries(style)
    .filter((e): e is [string, string] => typeof e[1] === 'string' && safeDeclaration(e[0], e[1]))
    .map(([p, v]) => `${p}:${v.trim()};`)
    .join('');
}

/** The rule's selector as GrapesJS writes it (compound selectors, then its state, then selectorsAdd), or null when it is not safe. */
function selectorText(rule: DesignStyleRule): string | null {
  const parts: string[] = [];
  for (const s of rule.selectors ?? []) {
    const name = typeof s === 'string' ? s : s.name;
    const isId = typeof s === 'string' ? s.startsWith('#') : s.type === 2;
    const bare = typeof s === 'string' ? s.replace(/^[#.]/, '') : s.name;
    if (!IDENT.test(bare) || typeof name !== 'string') return null;
    parts.push(`${isId ? '#' : '.'}${bare}`);
  }
  let text = parts.join('');
  if (text && rule.state) {
    if (!STATE.test(rule.state)) return null;
    text += `:${rule.state}`;
  }
  const added = typeof rule.selectorsAdd === 'string' ? rule.selectorsAdd.trim() : '';
  if (added) {
    if (!RAW_SELECTOR.test(added) || /\/\*|\\/.test(added)) return null;
    text = text ? `${text}, ${added}` : added;
  }
  return text || null;
}

/** The design's rules as CSS: plain rules in order, then each media (or supports) group in order of first appearance. */
function stylesText(rules: DesignStyleRule[] | undefined): string {
  const plain: string[] = [];
  const groups = new Map<string, string[]>();
  for (const rule of rules ?? []) {
    if (!rule || typeof rule !== 'object' || !rule.style || typeof rule.style !== 'object') continue;
    const body = declarationText(rule.style);
    if (!body) continue;
    const kind = rule.atRuleType ?? (rule.mediaText ? 'media' : '');
    if (kind === 'font-face') {
      plain.push(`@font-face{${body}}`);
      continue;
    }
    const selector = selectorText(rule);
    if (selector === null) continue;
    if (kind === '') {
      plain.push(`${selector}{${body}}`);
      continue;
    }
    const condition = (rule.mediaText ?? '').trim();
    if ((kind !== 'media' && kind !== 'supports') || !CONDITION.test(condition) || !condition) continue;
    const key = `@${kind} ${condition}`;
    const group = groups.get(key) ?? [];
    group.push(`${selector}{${body}}`);
    groups.set(key, group);
  }
  return [...plain, ...[...groups].map(([at, list]) => `${at}{${list.join('')}}`)].join('\n');
}

export function renderDesign(design: DesignDocument | null | undefined, options: DesignRenderOptions): RenderedDesign {
  const writer = new DesignWriter(options);
  writer.components(design?.components, 1);
  const css = [stylesText(writer.layoutRules), stylesText(design?.styles), writer.idRules.join('\n')].filter(Boolean).join('\n');
  return { html: writer.html.join(''), css, dataViews: writer.dataViews };
}
