// The HTML pages the platform writes itself (htmlPage, sendHtmlPage), and the small ones behind
// links mailed to people (unsubscribe, sender confirmation): static text and at most one form
// posting to the page's own URL, no script. The URL carries a token, so the page is never cached,
// never sends a Referer, and allows nothing but its inline style.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { escapeHtml } from '../html-escape.ts';

/** A whole page: `title` is text (escaped here), `bodyHtml` is markup the caller escaped. */
export function linkPage(title: string, bodyHtml: string): string {
  return htmlPage({
    title,
    head: '<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;line-height:1.5}button{font-size:1rem;padding:.5rem 1.25rem}</style>',
    body: `<h1>${escapeHtml(title)}</h1>\n${bodyHtml}`,
  });
}

/** An HTML document the platform serves itself: `title` is text, `head` and `body` markup the caller escaped. */
export function htmlPage({ title, head, body }: { title: string; head: string; body: string }): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
${head}
</head>
<body>
${body}
</body>
</html>
`;
}

const LINK_PAGE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'";

export function sendLinkPage(req: IncomingMessage, res: ServerResponse, status: number, html: string): void {
  sendHtmlPage(req, res, status, html, LINK_PAGE_POLICY);
}

/** A page that is never cached and never sends a Referer, under its Content-Security-Policy. */
export function sendHtmlPage(req: IncomingMessage, res: ServerResponse, status: number, html: string, policy: string): void {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(html),
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
    'content-security-policy': policy,
  });
  res.end(req.method === 'HEAD' ? undefined : html);
}
