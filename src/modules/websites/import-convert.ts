// One imported page's HTML as a design (docs/api/websites.md "Import"): parsed with htmlparser2,
// walked from <body>, and rebuilt from a short list of content tags (text, headings, links, lists,
// images, tables, basic layout) with a short list of attributes. Everything that could run or
// reach out is left out whole: scripts, styles (read separately as rules), frames, objects, SVG,
// event handlers, javascript: and other non-web URLs, tracking pixels. Forms are replaced by a
// marked placeholder (a review suggestion offers a wizard). Tags not on the list give their content
// without themselves. The result is still checked with checkDesign before it is stored.
import { onFirstUse } from '../../app/on-first-use.ts';

const htmlparser2 = onFirstUse<typeof import('htmlparser2')>('htmlparser2');
import type { ChildNode, Element } from 'domhandler';
import { findAll, findOne, getAttributeValue, textContent } from 'domutils';
import { type DesignComponent, type DesignDocument, type DesignStyleRule, newComponentId, safeUrl } from './design-document.ts';
import { inlineStyle, styleRules } from './import-css.ts';
import { pageTitleOf, sameSitePage } from './import-discover.ts';

const LIMITS = { components: 4000, depth: 30, text: 20_000, images: 50, classes: 10 } as const;

/** content tags kept as they are (with the GrapesJS type the editor gives them) */
const KEPT_TAGS: Readonly<Record<string, string>> = {
  h1: 'text', h2: 'text', h3: 'text', h4: 'text', h5: 'text', h6: 'text', p: 'text', blockquote: 'text', pre: 'text', figcaption: 'text',
  strong: 'text', b: 'text', em: 'text', i: 'text', u: 'text', small: 'text', sub: 'text', sup: 'text', code: 'text', span: 'text', br: 'default', hr: 'default',
  ul: 'default', ol: 'default', li: 'text', dl: 'default', dt: 'text', dd: 'text',
  div: 'default', section: 'default', article: 'default', header: 'default', footer: 'default', nav: 'default', main: 'default', aside: 'default', figure: 'default',
  table: 'table', thead: 'default', tbody: 'default', tfoot: 'default', tr: 'row', td: 'cell', th: 'cell', caption: 'text',
  a: 'link', img: 'image',
};
/** tags left out with everything inside them */
const DROPPED_TAGS: ReadonlySet<string> = new Set([
  'script', 'noscript', 'style', 'iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'portal', 'base', 'link', 'meta', 'template', 'slot',
  'title', 'head', 'math', 'svg', 'canvas', 'audio', 'video', 'source', 'track', 'picture', 'map', 'area', 'dialog', 'button', 'input', 'select', 'textarea', 'option',
]);
/** containers whose whitespace between children is layout, not text */
const BLOCK_CONTAINERS: ReadonlySet<string> = new Set(['body', 'div', 'section', 'article', 'header', 'footer', 'nav', 'main', 'aside', 'figure', 'ul', 'ol', 'dl', 'table', 'thead', 'tbody', 'tfoot', 'tr', 'form']);
const CLASS = /^[A-Za-z_][A-Za-z0-9_-]{0,99}$/;
const TRACKERS = /(?:^|\.)(?:facebook\.com|doubleclick\.net|google-analytics\.com|googletagmanager\.com|analytics\.twitter\.com|bat\.bing\.com|pixel\.)/i;

export interface ImageRef {
  /** the image component, whose src the import sets once the file is in */
  component: DesignComponent;
  sourceUrl: string;
}

export interface ConvertedPage {
  title: string | null;
  metaDescription: string | null;
  design: DesignDocument;
  images: ImageRef[];
  /** ids of the placeholders put where the page had forms */
  formIds: string[];
  /** components left out because the page was larger than a design may be */
  truncated: boolean;
}

export interface ConvertContext {
  /** the page's address after redirects: relative links resolve against it */
  pageUrl: URL;
  /** the pages of this import: their link from another imported page (relative to the new site) */
  linkOf: (url: URL) => string | null;
  /** EXTRACTED: the page's own styles become rules; otherwise none are taken */
  extractStyles: boolean;
}

const newId = (): string => newComponentId();

function textNode(content: string): DesignComponent {
  return { type: 'textnode', content };
}

function classesOf(el: Element): string[] {
  return (getAttributeValue(el, 'class') ?? '').split(/\s+/).filter((c) => CLASS.test(c)).slice(0, LIMITS.classes);
}

function isTrackingPixel(el: Element, src: URL): boolean {
  const tiny = (name: string) => /^\s*[01](?:px)?\s*$/.test(getAttributeValue(el, name) ?? '');
  return (tiny('width') && tiny('height')) || TRACKERS.test(src.hostname) || /display\s*:\s*none/i.test(getAttributeValue(el, 'style') ?? '');
}

class Converter {
  count = 0;
  truncated = false;
  readonly images: ImageRef[] = [];
  readonly formIds: string[] = [];

  private readonly ctx: ConvertContext;
  constructor(ctx: ConvertContext) {
    this.ctx = ctx;
  }

  children(nodes: readonly ChildNode[], depth: number, parentTag = 'body'): DesignComponent[] {
    const out: DesignComponent[] = [];
    for (const node of nodes) {
      if (node.type === 'text' && node.data.trim() === '' && BLOCK_CONTAINERS.has(parentTag)) continue;
      out.push(...this.node(node, depth));
    }
    return out;
  }

  node(node: ChildNode, depth: number): DesignComponent[] {
    if (this.count >= LIMITS.components || depth > LIMITS.depth) {
      this.truncated = true;
      return [];
    }
    if (node.type === 'text') {
      const content = node.data.replace(/\s+/g, ' ');
      if (content.trim() === '' && content !== ' ') return [];
      this.count++;
      return [textNode(content.slice(0, LIMITS.text))];
    }
    if (node.type !== 'tag') return [];
    const el = node as Element;
    const tag = el.name.toLowerCase();
    if (DROPPED_TAGS.has(tag)) return [];
    if (tag === 'form') return [this.formPlaceholder(el)];
    const type = KEPT_TAGS[tag];
    // an unknown wrapper (font, center, custom elements) gives its content
    if (!type) return this.children(el.children, depth, tag);
    const attributes: Record<string, string> = { id: newId() };
    if (tag === 'a') {
      const href = this.link(getAttributeValue(el, 'href'));
      if (href !== null) attributes.href = href;
      const title = getAttributeValue(el, 'title');
      if (title) attributes.title = title.slice(0, 300);
    } else if (tag === 'img') return this.image(el);
    else if (tag === 'td' || tag === 'th') {
      for (const name of ['colspan', 'rowspan']) {
        const value = getAttributeValue(el, name);
        if (value && /^\d{1,3}$/.test(value)) attributes[name] = value;
      }
    }
    this.count++;
    const component: DesignComponent = { type, tagName: tag, attributes };
    const classes = classesOf(el);
    if (classes.length) component.classes = classes;
    const style = this.ctx.extractStyles ? inlineStyle(getAttributeValue(el, 'style') ?? '') : {};
    if (Object.keys(style).length) component.style = style;
    const children = tag === 'br' || tag === 'hr' ? [] : this.children(el.children, depth + 1, tag);
    if (children.length) component.components = children;
    return [component];
  }

  /** a link as the new site keeps it: imported pages relative, other web links as they are, anything else none */
  link(raw: string | undefined): string | null {
    if (raw === undefined) return null;
    const value = raw.trim();
    if (value.startsWith('#')) return /^#[A-Za-z0-9_-]{0,100}$/.test(value) ? value : null;
    if (/^(mailto|tel):/i.test(value)) return safeUrl(value, 'a', 'href') && !/[<>"]/.test(value) ? value.slice(0, 500) : null;
    let url: URL;
    try {
      url = new URL(value, this.ctx.pageUrl);
    } catch {
      return null;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    const page = sameSitePage(url.href, this.ctx.pageUrl);
    const own = page ? this.ctx.linkOf(page) : null;
    if (own !== null) return own + (url.hash && /^#[A-Za-z0-9_-]{1,100}$/.test(url.hash) ? url.hash : '');
    return url.href.length <= 2000 ? url.href : null;
  }

  image(el: Element): DesignComponent[] {
    const raw = getAttributeValue(el, 'src');
    if (!raw) return [];
    let src: URL;
    try {
      src = new URL(raw.trim(), this.ctx.pageUrl);
    } catch {
      return [];
    }
    if ((src.protocol !== 'http:' && src.protocol !== 'https:') || isTrackingPixel(el, src)) return [];
    if (this.images.length >= LIMITS.images) {
      this.truncated = true;
      return [];
    }
    this.count++;
    const attributes: Record<string, string> = { id: newId(), alt: (getAttributeValue(el, 'alt') ?? '').slice(0, 500) };
    for (const name of ['width', 'height']) {
      const value = getAttributeValue(el, name);
      if (value && /^\d{1,5}$/.test(value)) attributes[name] = value;
    }
    const component: DesignComponent = { type: 'image', tagName: 'img', attributes };
    const classes = classesOf(el);
    if (classes.length) component.classes = classes;
    this.images.push({ component, sourceUrl: src.href });
    return [component];
  }

  formPlaceholder(el: Element): DesignComponent {
    this.count++;
    const id = newId();
    this.formIds.push(id);
    const fields = findAll((e) => ['input', 'select', 'textarea'].includes(e.name) && (getAttributeValue(e, 'type') ?? '') !== 'hidden', el.children).length;
    return {
      type: 'text',
      tagName: 'div',
      attributes: { id, 'data-import-form': 'true' },
      classes: ['import-form-placeholder'],
      components: [textNode(`A form with ${fields} field${fields === 1 ? '' : 's'} was here. Forms are not imported: replace this with a wizard.`)],
    };
  }
}

/** The page's HTML as a design with what the import still has to do (images to bring in). */
export function convertPage(html: string, ctx: ConvertContext): ConvertedPage {
  const doc = htmlparser2().parseDocument(html);
  const body = findOne((e) => e.name === 'body', doc.children);
  const converter = new Converter(ctx);
  const components = converter.children(body ? body.children : doc.children.filter((n) => !(n.type === 'tag' && (n as Element).name === 'head')), 1);
  const styles: DesignStyleRule[] = [];
  if (ctx.extractStyles) for (const block of findAll((e) => e.name === 'style', doc.children)) styles.push(...styleRules(textContent(block)));
  const description = findAll((e) => e.name === 'meta', doc.children).find((m) => (getAttributeValue(m, 'name') ?? '').toLowerCase() === 'description');
  return {
    title: pageTitleOf(doc),
    metaDescription: description ? (getAttributeValue(description, 'content') ?? '').trim().slice(0, 1000) || null : null,
    design: { components, styles: styles.slice(0, 1000) },
    images: converter.images,
    formIds: converter.formIds,
    truncated: converter.truncated,
  };
}
