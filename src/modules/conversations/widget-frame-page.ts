// The widget's chat page (docs/api/conversations.md "Content-Security-Policy"), opened by the
// loader in an iframe on the team's pages. Every value is escaped text; colors were validated as
// #RRGGBB when stored. Its policy allows scripts only with this response's nonce (the frame's own
// script and the graphql-ws client, both served from here), styles from here and the nonce'd
// color block, requests and the graphql-ws socket to this origin only, and framing only by the
// widget's allowed origins.
import { randomBytes } from 'node:crypto';
import { escapeHtml } from '../../app/html-escape.ts';
import { htmlPage } from '../../app/http/link-page.ts';
import type { Appearance } from './widget.input.ts';
import { ASSET_PATH } from './widget-links.ts';

export interface FramePage {
  html: string;
  policy: string;
}

/** `wss://<host>` of the request, when the Host header is a plain host[:port] (else only 'self'). */
function socketSource(host: string | undefined, secure: boolean): string {
  if (!host || !/^[A-Za-z0-9.\-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/.test(host)) return '';
  return ` ${secure ? 'wss' : 'ws'}://${host}`;
}

export function framePolicy(nonce: string, origins: readonly string[], host: string | undefined, secure: boolean): string {
  const ancestors = origins.length > 0 ? origins.join(' ') : "'none'";
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'self' 'nonce-${nonce}'`,
    `connect-src 'self'${socketSource(host, secure)}`,
    "img-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${ancestors}`,
  ].join('; ');
}

export function renderFramePage(w: { simplyId: string; allowedOrigins: readonly string[]; identityVerification: string; appearance: Appearance }, host: string | undefined, secure: boolean): FramePage {
  const nonce = randomBytes(18).toString('base64');
  const a = w.appearance;
  const colors = `:root{--primary:${a.primaryColor};--on-primary:${a.textColor}}`;
  const html = htmlPage({
    title: a.title,
    head: [
      `<link rel="stylesheet" href="${ASSET_PATH}frame.css">`,
      `<style nonce="${nonce}">${colors}</style>`,
      `<script nonce="${nonce}" src="${ASSET_PATH}graphql-ws.js" defer></script>`,
      `<script nonce="${nonce}" src="${ASSET_PATH}frame.js" defer></script>`,
    ].join('\n'),
    body: `<main id="widget" class="position-${a.position === 'LEFT' ? 'left' : 'right'}" data-widget="${escapeHtml(w.simplyId)}" data-identity="${escapeHtml(w.identityVerification)}" data-origins="${escapeHtml(JSON.stringify(w.allowedOrigins))}">
<button type="button" id="launcher" aria-expanded="false">${escapeHtml(a.launcherLabel)}</button>
<section id="panel" hidden>
<header><h1 id="title">${escapeHtml(a.title)}</h1><button type="button" id="close" aria-label="Close">×</button></header>
<p id="greeting"${a.greeting ? '' : ' hidden'}>${escapeHtml(a.greeting)}</p>
<ol id="messages" aria-live="polite"></ol>
<form id="start" hidden>
<input name="visitorName" autocomplete="name" placeholder="Your name (optional)" maxlength="200">
<input name="visitorEmail" type="email" autocomplete="email" placeholder="Your email (optional)" maxlength="254">
<textarea name="content" required maxlength="20000" placeholder="${escapeHtml(a.inputPlaceholder)}"></textarea>
<button type="submit">Start</button>
</form>
<form id="compose" hidden>
<textarea name="content" required maxlength="20000" placeholder="${escapeHtml(a.inputPlaceholder)}"></textarea>
<button type="submit">Send</button>
</form>
<p id="status" role="status"></p>
</section>
</main>`,
  });
  return { html, policy: framePolicy(nonce, w.allowedOrigins, host, secure) };
}

/** A widget that does not exist or is switched off: a short text, framed by nobody. */
export function unavailablePage(): FramePage {
  return { html: htmlPage({ title: 'Chat unavailable', head: '', body: '<p>This chat is not available.</p>' }), policy: "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'" };
}
