// The GraphiQL page Yoga answers at GET /graphql (Accept: text/html) when GraphiQL is on: Yoga's
// own GraphiQL build, but every file from this server (src/app/http/graphiql-assets.ts) and a
// fetcher that also authenticates subscriptions (graphiql-start.browser.js). The headers editor
// opens with a template for the platform's two request headers; they are never persisted.
import { graphiqlAssetUrl } from './graphiql-assets.ts';
import { escapeHtml } from '../html-escape.ts';

const TITLE = 'svc platform GraphiQL';

// lines short enough for the editor's half of a laptop screen
const DEFAULT_QUERY = `# svc platform GraphQL. Credentials go in Headers below:
#   "Authorization": "Bearer <API key or token>"
#   "X-Team-Id": "<team>"  (with a user access token)
# Subscriptions: same endpoint, same headers (graphql-ws).
# Run: Ctrl-Enter. The schema: the book icon, top left.
{
  viewer {
    credentialKind
    featurePermissions { name level }
  }
}
`;

const HEADERS_TEMPLATE = `{
  "Authorization": "Bearer ",
  "X-Team-Id": ""
}`;

// what GraphiQL itself is told (Yoga's renderYogaGraphiQL passes the rest on to <GraphiQL>)
const GRAPHIQL_PROPS = {
  title: TITLE,
  query: DEFAULT_QUERY,
  headers: HEADERS_TEMPLATE,
  initialHeaders: HEADERS_TEMPLATE,
  defaultEditorToolsVisibility: 'headers',
  // API keys must not land in the browser's storage
  shouldPersistHeaders: false,
};

// a <meta> policy, because Yoga builds the response (only its Content-Type) itself
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  // the editor and React set inline styles
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  // 'self' covers wss:// on this host and port: the subscriptions
  "connect-src 'self'",
  "worker-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/** Yoga's `graphiql` and `renderGraphiQL` options: the page when on, Yoga's plain GraphQL GET when off. */
export function graphiqlPage(enabled: boolean): { graphiql: boolean; renderGraphiQL: () => string } {
  return { graphiql: enabled, renderGraphiQL: renderGraphiQLPage };
}

let page: string | undefined;

function renderGraphiQLPage(): string {
  page ??= buildPage();
  return page;
}

function buildPage(): string {
  const config = {
    endpoint: '/graphql',
    graphiql: GRAPHIQL_PROPS,
    assets: {
      workers: {
        editorWorkerService: graphiqlAssetUrl('editor.worker.js'),
        json: graphiqlAssetUrl('json.worker.js'),
        graphql: graphiqlAssetUrl('graphql.worker.js'),
      },
    },
  };
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta http-equiv="Content-Security-Policy" content="${escapeHtml(CSP)}" />
    <title>${TITLE}</title>
    <link rel="icon" href="data:," />
    <link rel="stylesheet" href="${graphiqlAssetUrl('graphiql.css')}" />
    <style>html, body, #graphiql { height: 100%; margin: 0; }</style>
  </head>
  <body>
    <div id="graphiql" data-config="${escapeHtml(JSON.stringify(config))}">Loading ${TITLE}…</div>
    <script src="${graphiqlAssetUrl('graphiql-start.js')}"></script>
    <script src="${graphiqlAssetUrl('graphql-ws.js')}"></script>
    <script src="${graphiqlAssetUrl('yoga-graphiql.js')}"></script>
  </body>
</html>
`;
}
