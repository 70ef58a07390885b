// The widget's files, served by the platform itself (no CDN): the loader a team puts on its pages,
// the chat page it frames, and that page's own script, stylesheet and graphql-ws client
// (node_modules/graphql-ws's browser build, read once). Paths: widget-links.ts.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import type { Services } from '../../app/context.ts';
import { sendHtmlPage } from '../../app/http/link-page.ts';
import type { AppFaces, HttpEndpoint } from '../../app/module.ts';
import { appearanceOf } from './widgets.service.ts';
import { renderFramePage, unavailablePage } from './widget-frame-page.ts';
import { conversationWidgetId } from './widget.ids.ts';
import { ASSET_PATH, FRAME_PATH, LOADER_PATH, WIDGET_PREFIX } from './widget-links.ts';

const HERE = path.join(import.meta.dirname, 'widget-embed');
const graphqlWsBuild = () => path.join(path.dirname(createRequire(import.meta.url).resolve('graphql-ws')), '..', 'umd', 'graphql-ws.min.js');

const JS = 'text/javascript; charset=utf-8';
const FILES: Record<string, { file: () => string; type: string }> = {
  'frame.js': { file: () => path.join(HERE, 'frame.browser.js'), type: JS },
  'frame.css': { file: () => path.join(HERE, 'frame.css'), type: 'text/css; charset=utf-8' },
  'graphql-ws.js': { file: graphqlWsBuild, type: JS },
};

const cache = new Map<string, Buffer>();
const read = (file: string) => {
  let body = cache.get(file);
  if (!body) cache.set(file, (body = fs.readFileSync(file)));
  return body;
};

function sendFile(req: IncomingMessage, res: ServerResponse, body: Buffer, type: string, extra: Record<string, string> = {}): void {
  res.writeHead(200, {
    'content-type': type,
    'content-length': body.length,
    'cache-control': 'public, max-age=300',
    'x-content-type-options': 'nosniff',
    ...extra,
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}

function notFound(res: ServerResponse): void {
  res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', 'content-length': 9, 'x-content-type-options': 'nosniff' });
  res.end('not found');
}

export function widgetEndpoints(services: Services, { rateLimited }: AppFaces): HttpEndpoint[] {
  // the platform always serves HTTPS (itself, or behind a TLS-terminating proxy): the socket is wss
  const secure = true;
  const handle = async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-length': 0 });
      return void res.end();
    }
    if (url.pathname === LOADER_PATH) {
      // runs on the team's pages: loadable from any origin, never sniffed as anything but a script
      return sendFile(req, res, read(path.join(HERE, 'loader.browser.js')), JS, { 'cross-origin-resource-policy': 'cross-origin' });
    }
    if (url.pathname.startsWith(ASSET_PATH)) {
      const asset = FILES[url.pathname.slice(ASSET_PATH.length)];
      return asset ? sendFile(req, res, read(asset.file()), asset.type) : notFound(res);
    }
    if (url.pathname.startsWith(FRAME_PATH)) {
      // the page reads the database: counted per address like any anonymous call (the static files are not)
      const limited = rateLimited(req);
      if (limited) {
        res.writeHead(429, { 'content-type': 'text/plain; charset=utf-8', ...limited.headers });
        return void res.end(limited.message);
      }
      const simplyId = url.pathname.slice(FRAME_PATH.length);
      const widget = conversationWidgetId.is(simplyId) ? await services.prisma.conversationWidget.findFirst({ where: { simplyId } }) : null;
      const page = widget?.isEnabled ? renderFramePage({ ...widget, appearance: appearanceOf(widget) }, req.headers.host, secure) : null;
      if (!widget || !page) {
        const gone = unavailablePage();
        return sendHtmlPage(req, res, 404, gone.html, gone.policy);
      }
      return sendHtmlPage(req, res, 200, page.html, page.policy);
    }
    return notFound(res);
  };
  return [{ prefix: WIDGET_PREFIX, route: `${WIDGET_PREFIX}{file}`, handle }];
}
