// Styles of an imported page as design style rules (docs/api/websites.md "Import"): the page's own
// <style> blocks and style attributes, parsed with postcss, keeping only plain selectors (classes,
// ids, tags and their combinations), media queries, and declarations of layout, spacing, colour and
// type. Nothing that loads or runs survives: no url(), @import, expression(), behaviors, bindings.
import type { AtRule, Rule } from 'postcss';
import { onFirstUse } from '../../app/on-first-use.ts';
import type { DesignStyleRule } from './design-document.ts';
import { unsafeCssValue } from './design-document.ts';

const postcss = onFirstUse<typeof import('postcss').default>('postcss');

const MAX_RULES = 1000;
const PROPERTY = /^(?:color|opacity|background-color|font(?:-(?:family|size|weight|style|variant))?|line-height|letter-spacing|word-spacing|text-(?:align|decoration|transform|indent|shadow)|white-space|vertical-align|(?:margin|padding)(?:-(?:top|right|bottom|left))?|border(?:-(?:top|right|bottom|left))?(?:-(?:width|style|color|radius))?|border-radius|box-shadow|box-sizing|display|flex(?:-(?:direction|wrap|grow|shrink|basis|flow))?|order|gap|row-gap|column-gap|grid-template-(?:columns|rows|areas)|grid-(?:column|row|area)|align-(?:items|self|content)|justify-(?:content|items|self)|(?:min-|max-)?(?:width|height)|position|top|right|bottom|left|z-index|overflow(?:-[xy])?|list-style(?:-type|-position)?|float|clear|object-fit|text-overflow|cursor)$/;
/** selectors as GrapesJS can hold them: tags, .classes, #ids, descendant/child combinators, a few states */
const PLAIN_SELECTOR = /^[A-Za-z0-9_\s.#>:-]{1,200}$/;
const STATES = new Set(['hover', 'focus', 'active', 'visited', 'first-child', 'last-child']);

/** A declaration the import keeps, or null. */
export function safeDeclaration(property: string, value: string): [string, string] | null {
  const prop = property.trim().toLowerCase();
  const val = value.trim().replace(/\s*!important$/i, '');
  if (!PROPERTY.test(prop) || val.length === 0 || val.length > 500) return null;
  if (unsafeCssValue(val) || /url\s*\(|[<>{}]|\\|@/i.test(val)) return null;
  return [prop, val];
}

/** An inline style attribute as kept declarations. */
export function inlineStyle(text: string): Record<string, string> {
  const style: Record<string, string> = {};
  for (const part of text.split(';')) {
    const colon = part.indexOf(':');
    if (colon <= 0) continue;
    const kept = safeDeclaration(part.slice(0, colon), part.slice(colon + 1));
    if (kept) style[kept[0]] = kept[1];
  }
  return style;
}

function ruleOf(selector: string, style: Record<string, string>, mediaText: string | undefined): DesignStyleRule | null {
  const trimmed = selector.trim().replace(/\s+/g, ' ');
  if (!PLAIN_SELECTOR.test(trimmed) || /::|\*/.test(trimmed)) return null;
  for (const state of trimmed.match(/:([a-z-]+)/g) ?? []) if (!STATES.has(state.slice(1))) return null;
  // a single class becomes a GrapesJS class selector; anything else is kept as written (selectorsAdd)
  const single = /^\.([A-Za-z_][A-Za-z0-9_-]*)$/.exec(trimmed);
  const rule: DesignStyleRule = single ? { selectors: [single[1]!], style } : { selectors: [], selectorsAdd: trimmed, style };
  if (mediaText) {
    rule.mediaText = mediaText;
    rule.atRuleType = 'media';
  }
  return rule;
}

/** The style rules of a stylesheet; a sheet that does not parse gives none. */
export function styleRules(css: string): DesignStyleRule[] {
  let root;
  try {
    root = postcss().parse(css);
  } catch {
    return [];
  }
  const rules: DesignStyleRule[] = [];
  root.walkRules((node: Rule) => {
    if (rules.length >= MAX_RULES) return;
    const parent = node.parent as AtRule | undefined;
    let mediaText: string | undefined;
    if (parent?.type === 'atrule') {
      if (parent.name.toLowerCase() !== 'media' || !/^[a-z0-9\s():,.-]{1,200}$/i.test(parent.params)) return;
      mediaText = parent.params.trim();
    } else if (parent?.type !== 'root') return;
    const style: Record<string, string> = {};
    node.walkDecls((decl) => {
      const kept = safeDeclaration(decl.prop, decl.value);
      if (kept) style[kept[0]] = kept[1];
    });
    if (Object.keys(style).length === 0) return;
    for (const selector of node.selectors) {
      const rule = ruleOf(selector, { ...style }, mediaText);
      if (rule) rules.push(rule);
    }
  });
  return rules;
}

/** The key that says two rules style the same thing (for conflicts between pages). */
export const ruleKey = (rule: DesignStyleRule): string => `${rule.mediaText ?? ''}|${rule.selectors.join(',')}|${String(rule.selectorsAdd ?? '')}`;
