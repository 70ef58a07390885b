// The read-only page of a shared view (docs/api/data-views.md "The embedded page"): a table of
// the view's display fields, a page of its records, links to the pages before and after. Every
// value is text escaped here; the page has no script, no image, no form and loads nothing. Its
// one inline stylesheet is allowed by its hash, so the Content-Security-Policy can forbid
// everything else; `frame-ancestors` says who may show it in a frame.
import { createHash } from 'node:crypto';
import { escapeHtml } from '../../app/html-escape.ts';
import { htmlPage } from '../../app/http/link-page.ts';
import type { FrameAncestors } from './views.shared-view.ts';

/** the longest text a cell shows; the rest is cut (a page stays small whatever a record holds) */
export const MAX_CELL_CHARACTERS = 1_000;

const STYLE = [
  'body{font-family:system-ui,sans-serif;margin:0;padding:1rem;color:#1f2328;background:#fff}',
  'h1{font-size:1.25rem;margin:0 0 .75rem}',
  'table{border-collapse:collapse;width:100%;font-size:.875rem}',
  'th,td{text-align:left;vertical-align:top;padding:.4rem .6rem;border-bottom:1px solid #d0d7de;overflow-wrap:anywhere}',
  'th{background:#f6f8fa;font-weight:600}',
  'nav{display:flex;gap:1rem;align-items:center;margin-top:.75rem;font-size:.875rem}',
  '.muted{color:#59636e}',
].join('');

/** CSP source of the stylesheet: its SHA-256, as the browser hashes the element's text. */
const STYLE_SOURCE = `'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`;

/**
 * Nothing may load or run; the stylesheet by its hash; links navigate the frame itself (no
 * form-action, no base); frame-ancestors: the token's origins, the platform itself for an
 * internal token, 'none' when a public token names no origin.
 */
export function embedPolicy(frame: FrameAncestors): string {
  const ancestors = frame.kind === 'self' ? "'self'" : frame.origins.length > 0 ? frame.origins.join(' ') : "'none'";
  return `default-src 'none'; style-src ${STYLE_SOURCE}; img-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors ${ancestors}`;
}

export interface EmbedPageContent {
  title: string;
  columns: readonly string[];
  /** one text per column, per record, unescaped */
  rows: readonly (readonly string[])[];
  page: number;
  pageSize: number;
  total: number;
  /** the saved sort could be applied only partly (views.embed-rows.ts) */
  sortShortened: boolean;
}

function cell(text: string): string {
  const shown = text.length > MAX_CELL_CHARACTERS ? `${text.slice(0, MAX_CELL_CHARACTERS)}…` : text;
  return `<td>${escapeHtml(shown)}</td>`;
}

/** `?page=n` keeping the page size when it is not the default: links stay on the token's own path. */
function pageLink(page: number, pageSize: number, defaultSize: number): string {
  return escapeHtml(`?page=${page}${pageSize === defaultSize ? '' : `&pageSize=${pageSize}`}`);
}

export function renderEmbedPage(c: EmbedPageContent, defaultPageSize: number): string {
  const pages = Math.max(1, Math.ceil(c.total / c.pageSize));
  const head = c.columns.map((label) => `<th scope="col">${escapeHtml(label)}</th>`).join('');
  const body = c.rows.map((values) => `<tr>${values.map(cell).join('')}</tr>`).join('\n');
  const nav = [
    c.page > 1 ? `<a rel="prev" href="${pageLink(Math.min(c.page - 1, pages), c.pageSize, defaultPageSize)}">Previous</a>` : '',
    `<span class="muted">Page ${c.page} of ${pages} · ${c.total} ${c.total === 1 ? 'record' : 'records'}</span>`,
    c.page < pages ? `<a rel="next" href="${pageLink(c.page + 1, c.pageSize, defaultPageSize)}">Next</a>` : '',
  ].filter(Boolean);
  const notes = [
    c.rows.length === 0 ? '<p class="muted" id="empty">No records to show.</p>' : '',
    c.sortShortened ? '<p class="muted" id="sort-note">This view has too many records to be ordered by field values here; they are shown in a simpler order.</p>' : '',
  ].filter(Boolean);
  return htmlPage({
    title: c.title,
    head: `<style>${STYLE}</style>`,
    body: `<main>
<h1>${escapeHtml(c.title)}</h1>
<table>
<thead><tr>${head}</tr></thead>
<tbody>
${body}
</tbody>
</table>
${notes.join('\n')}
<nav aria-label="Pages">${nav.join(' ')}</nav>
</main>`,
  });
}
