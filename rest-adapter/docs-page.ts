// The API reference at /docs: Scalar's standalone browser bundle, served from our own
// node_modules (never a CDN), rendering /openapi.json. The page's Content-Security-Policy keeps
// every request on this origin, and the renderer is configured not to try others (no hosted
// fonts, no telemetry, no hosted request proxy, no AI agent, no toolbar of hosted services).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { ServerResponse } from 'node:http';
import { escapeHtml } from '../src/app/html-escape.ts';

export const DOCS_PATH = '/docs';
const BUNDLE_PATH = `${DOCS_PATH}/scalar-api-reference.js`;

// The renderer reads its configuration from this element when the bundle loads. (Its
// `createApiReference(el, config)` form renders before it selects the document, with the default
// configuration: hosted fonts included. This form applies ours from the start.)
const CONFIGURATION = {
  withDefaultFonts: false,
  telemetry: false,
  hideClientButton: true,
  hideTestRequestButton: true,
  // its toolbar (shown on localhost) offers the vendor's hosted services: sharing, deploying, SDKs
  showDeveloperTools: 'never',
  showOperationId: true,
  agent: { disabled: true },
  mcp: { disabled: true },
};

const HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>svc platform API reference</title>
    <link rel="icon" href="data:," />
  </head>
  <body>
    <script id="api-reference" data-url="/openapi.json" data-configuration="${escapeHtml(JSON.stringify(CONFIGURATION))}"></script>
    <script src="${BUNDLE_PATH}"></script>
  </body>
</html>
`;

const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  // the renderer injects its theme as <style> elements
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
].join('; ');

let bundle: Buffer | undefined;

function scalarBundle(): Buffer {
  // the package exports no subpath for it: the bundle sits beside its main entry (dist/index.js)
  bundle ??= fs.readFileSync(path.join(path.dirname(createRequire(import.meta.url).resolve('@scalar/api-reference')), 'browser', 'standalone.js'));
  return bundle;
}

/** Serves /docs and its assets; false when the path is not one of them (the caller answers 404). */
export function serveDocs(res: ServerResponse, pathname: string): boolean {
  if (pathname === DOCS_PATH || pathname === `${DOCS_PATH}/`) {
    send(res, 'text/html; charset=utf-8', HTML, 'no-cache');
    return true;
  }
  if (pathname === BUNDLE_PATH) {
    send(res, 'text/javascript; charset=utf-8', scalarBundle(), 'public, max-age=3600');
    return true;
  }
  return false;
}

function send(res: ServerResponse, contentType: string, body: string | Buffer, cacheControl: string): void {
  res.writeHead(200, {
    'content-type': contentType,
    'content-length': Buffer.byteLength(body),
    'cache-control': cacheControl,
    'content-security-policy': CSP,
    'x-content-type-options': 'nosniff',
  });
  res.end(body);
}
