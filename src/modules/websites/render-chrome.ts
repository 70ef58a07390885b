// A site's campaign chrome (campaignChromeConfig, version 2) as static markup on a served page, with
// no script: each entry that is enabled, meant for the page and inside its time window is a
// landmark labelled by its accessible label, its HTML sanitized (render-sanitize.ts).
//
//   BANNER        a region at the top of the page
//   MODAL         a dialog over the page, on a backdrop
//   SLIDE_IN      a complementary box in the corner
//   CONVERSATION  a complementary box with its HTML (or its label): the live chat needs the chat
//                 widget's script, which a served page does not load
//
// Dismissing needs no script: a visually hidden checkbox before the entry, named "Close …", hides
// it when checked (`:checked + .svc-chrome`), and the entry's × is its label. AFTER_SECONDS entries
// appear after their delay by a CSS animation; ON_SCROLL_PERCENT and ON_EXIT_INTENT entries, which
// would need script to watch the visitor, appear once the page has loaded. Connected components
// (wizards, newsletter sign-ups) are not rendered: the entry's HTML is.
import { escapeHtml } from '../../app/html-escape.ts';
import type { CampaignPopup } from './campaign-chrome.input.ts';

export interface ChromeEntryView {
  popup: CampaignPopup;
  label: string;
}

/** The label in `language` when it has one, else its first. */
export function labelIn(label: CampaignPopup['accessibleLabel'], language: string): string {
  if (label === undefined) return '';
  if (typeof label === 'string') return label;
  return label[language] ?? Object.values(label)[0] ?? '';
}

function inWindow(p: CampaignPopup, now: number): boolean {
  if (p.startsAt && Date.parse(p.startsAt) > now) return false;
  if (p.endsAt && Date.parse(p.endsAt) <= now) return false;
  return true;
}

function popupsOf(config: unknown): CampaignPopup[] {
  const c = config as { version?: unknown; popups?: unknown } | null;
  return c && c.version === 2 && Array.isArray(c.popups) ? (c.popups as CampaignPopup[]) : [];
}

/** The entries a page shows at `now`. */
export function activeChrome(config: unknown, pageSimplyId: string, now: number): CampaignPopup[] {
  return popupsOf(config).filter((p) => p.enabled && (!p.pageSimplyIds || p.pageSimplyIds.includes(pageSimplyId)) && inWindow(p, now));
}

/** The next moment after `now` when an entry for the page starts or ends (what the page shows changes then), or null. */
export function nextChromeChange(config: unknown, pageSimplyId: string, now: number): number | null {
  let next: number | null = null;
  for (const p of popupsOf(config)) {
    if (!p.enabled || (p.pageSimplyIds && !p.pageSimplyIds.includes(pageSimplyId))) continue;
    for (const at of [p.startsAt, p.endsAt]) {
      const t = at ? Date.parse(at) : NaN;
      if (t > now && (next === null || t < next)) next = t;
    }
  }
  return next;
}

const ROLE: Record<string, string> = { BANNER: 'region', MODAL: 'dialog', SLIDE_IN: 'complementary', CONVERSATION: 'complementary' };
const ID = /^[A-Za-z0-9_-]{1,64}$/;

/** The entries' markup and the CSS of their delays. `sanitize` cleans each entry's HTML. */
export function renderChrome(popups: CampaignPopup[], language: string, sanitize: (html: string) => string): { html: string; css: string } {
  const html: string[] = [];
  const css: string[] = [];
  for (const p of popups) {
    if (!ID.test(p.id) || !ROLE[p.type]) continue;
    const label = labelIn(p.accessibleLabel, language).trim() || p.name || 'Notice';
    const id = `svc-chrome-${p.id}`;
    const kind = p.type.toLowerCase().replace('_', '-');
    const content = p.html ? sanitize(p.html) : p.type === 'CONVERSATION' ? `<p>${escapeHtml(label)}</p>` : '';
    const delay = p.trigger?.kind === 'AFTER_SECONDS' && p.trigger.value ? p.trigger.value : 0;
    if (delay > 0) css.push(`#${id}{animation-delay:${delay}s}`);
    html.push(
      `<input type="checkbox" class="svc-dismiss" id="${id}-close" aria-label="${escapeHtml(`Close ${label}`)}">` +
        `<div id="${id}" class="svc-chrome svc-${kind}${delay > 0 ? ' svc-delayed' : ''}" role="${ROLE[p.type]}" aria-label="${escapeHtml(label)}">` +
        `<label class="svc-close" for="${id}-close" aria-hidden="true">×</label><div class="svc-chrome-body">${content}</div></div>`,
    );
  }
  return { html: html.join('\n'), css: css.join('') };
}
