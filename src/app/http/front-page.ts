// GET / : a small page that tells a person who opens the server's address in a browser where to
// go: the API reference, the OpenAPI document, GraphiQL (or that it is off here). Self-contained:
// no script, no stylesheet or font from anywhere, not even a favicon request.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendError } from './envelope.ts';

export const FRONT_PAGE_PATH = '/';

const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const STYLE = `
  body { font: 16px/1.5 system-ui, sans-serif; max-width: 44rem; margin: 3rem auto; padding: 0 1.25rem; color: #1d2433; }
  h1 { font-size: 1.6rem; margin-bottom: .25rem; }
  h2 { font-size: 1.1rem; margin-top: 2rem; }
  code { font: .9em ui-monospace, monospace; background: #f1f3f7; padding: .1em .3em; border-radius: 3px; white-space: nowrap; }
  a { color: #2251c5; }
  li { margin: .4rem 0; }
  .off { color: #6b7280; }
`;

function graphiqlItem(graphiql: boolean): string {
  return graphiql
    ? `<li><a href="/graphql">GraphiQL</a>: write and run GraphQL queries, mutations and subscriptions in the browser. Put your credential in its Headers tab (<code>Authorization: Bearer …</code>, and <code>X-Team-Id</code> with a user access token).</li>`
    : `<li class="off">GraphiQL is off on this server (it is off in production unless <code>GRAPHIQL=true</code>). GraphQL itself is served at <code>/graphql</code>.</li>`;
}

function page(graphiql: boolean): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>svc platform</title>
    <link rel="icon" href="data:," />
    <style>${STYLE}</style>
  </head>
  <body>
    <h1>svc platform</h1>
    <p>A multi-tenant data platform: each team keeps its data collections and records here, with
    views, wizards, roles and permissions, webhooks, automations and realtime updates. One GraphQL
    schema serves it all; the <code>/v1</code> REST API is mapped onto that schema.</p>
    <h2>Start here</h2>
    <ul>
      <li><a href="/docs">API reference</a>: every <code>/v1</code> route with its parameters, request and response bodies and errors.</li>
      <li><a href="/openapi.json">OpenAPI document</a> (<code>/openapi.json</code>, OpenAPI 3.1): the same reference for code generators and API tools.</li>
      ${graphiqlItem(graphiql)}
    </ul>
    <h2>Calling the API</h2>
    <ul>
      <li>Every call carries <code>Authorization: Bearer &lt;credential&gt;</code>: an API key, a session token it minted, or a user access token from <code>POST /v1/auth/login</code> (then also <code>X-Team-Id</code>).</li>
      <li>GraphQL: <code>POST /graphql</code>; subscriptions over graphql-ws at the same path (<code>wss://</code>), with the same headers as connection parameters.</li>
      <li>Health: <code>/healthz</code> (the process), <code>/readyz</code> (the process and its database).</li>
    </ul>
  </body>
</html>
`;
}

const pages = new Map<boolean, Buffer>();

/** Answers every request for `/`: the page for GET and HEAD, 405 for any other method. */
export function serveFrontPage(req: IncomingMessage, res: ServerResponse, requestId: string, graphiql: boolean): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    return sendError(res, requestId, { status: 405, code: 'METHOD_NOT_ALLOWED', message: 'Allowed methods: GET, HEAD', headers: { Allow: 'GET, HEAD' } });
  }
  let body = pages.get(graphiql);
  if (!body) pages.set(graphiql, (body = Buffer.from(page(graphiql))));
  res.writeHead(200, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': body.length,
    'cache-control': 'no-cache',
    'content-security-policy': CSP,
    'x-content-type-options': 'nosniff',
  });
  // Node sends no body for HEAD, only the headers with the length of the GET answer
  res.end(body);
}
