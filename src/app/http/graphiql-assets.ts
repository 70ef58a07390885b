// GraphiQL's files, served by this server from its own node_modules so the page works without the
// internet (Yoga's default page loads them from a CDN): the prebuilt bundle, stylesheet and editor
// workers of @graphql-yoga/graphiql, graphql-ws's browser client, and our start script. A fixed
// table of names: no part of a request path ever becomes part of a file path. Each URL carries a
// tag of the versions and our script's content, so the files can be cached as immutable.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sendError } from './envelope.ts';

export const GRAPHIQL_ASSETS_PATH = '/graphql/assets/';

const require = createRequire(import.meta.url);

interface Asset {
  file: string;
  contentType: string;
}

const JS = 'text/javascript; charset=utf-8';

function assetTable(): { versions: string[]; assets: Map<string, Asset> } {
  // the package exports only its UMD/ES entries; the stylesheet and workers sit beside them in dist/
  const graphiqlDist = path.dirname(require.resolve('@graphql-yoga/graphiql'));
  const graphqlWsRoot = path.join(path.dirname(require.resolve('graphql-ws')), '..');
  const versions = [path.join(graphiqlDist, '..'), graphqlWsRoot].map((root) => {
    const { name, version } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
    return `${name}@${version}`;
  });
  const assets = new Map<string, Asset>([
    ['graphiql.css', { file: path.join(graphiqlDist, 'graphiql.css'), contentType: 'text/css; charset=utf-8' }],
    ['yoga-graphiql.js', { file: path.join(graphiqlDist, 'yoga-graphiql.umd.js'), contentType: JS }],
    ['editor.worker.js', { file: path.join(graphiqlDist, 'monacoeditorwork', 'editor.worker.bundle.js'), contentType: JS }],
    ['json.worker.js', { file: path.join(graphiqlDist, 'monacoeditorwork', 'json.worker.bundle.js'), contentType: JS }],
    // the package names it so (two dots)
    ['graphql.worker.js', { file: path.join(graphiqlDist, 'monacoeditorwork', 'graphql.worker..bundle.js'), contentType: JS }],
    ['graphql-ws.js', { file: path.join(graphqlWsRoot, 'umd', 'graphql-ws.min.js'), contentType: JS }],
    ['graphiql-start.js', { file: fileURLToPath(new URL('./graphiql-start.browser.js', import.meta.url)), contentType: JS }],
  ]);
  return { versions, assets };
}

let table: { tag: string; assets: Map<string, Asset> } | undefined;

function assets(): { tag: string; assets: Map<string, Asset> } {
  if (!table) {
    const { versions, assets: map } = assetTable();
    const tag = createHash('sha256')
      .update(versions.join(','))
      .update(fs.readFileSync(map.get('graphiql-start.js')!.file))
      .digest('base64url')
      .slice(0, 12);
    table = { tag, assets: map };
  }
  return table;
}

/** The URL of one of GraphiQL's files (a name from the table). */
export function graphiqlAssetUrl(name: string): string {
  const { tag, assets: map } = assets();
  if (!map.has(name)) throw new Error(`no GraphiQL asset ${name}`);
  return `${GRAPHIQL_ASSETS_PATH}${tag}/${name}`;
}

/**
 * Answers every request under GRAPHIQL_ASSETS_PATH: the file (GET, HEAD), 405 for another method,
 * 404 for an unknown name, an old tag, or when GraphiQL is off.
 */
export function serveGraphiQLAsset(req: IncomingMessage, res: ServerResponse, requestId: string, pathname: string, enabled: boolean): void {
  const notFound = () => sendError(res, requestId, { status: 404, code: 'NOT_FOUND', message: `No route for ${req.method} ${pathname}` });
  if (!enabled) return notFound();
  const { tag, assets: map } = assets();
  const rest = pathname.slice(GRAPHIQL_ASSETS_PATH.length);
  const asset = rest.startsWith(`${tag}/`) ? map.get(rest.slice(tag.length + 1)) : undefined;
  if (!asset) return notFound();
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    return sendError(res, requestId, { status: 405, code: 'METHOD_NOT_ALLOWED', message: 'Allowed methods: GET, HEAD', headers: { Allow: 'GET, HEAD' } });
  }
  let size: number;
  try {
    size = fs.statSync(asset.file).size;
  } catch {
    return notFound();
  }
  res.writeHead(200, {
    'content-type': asset.contentType,
    'content-length': size,
    'cache-control': 'public, max-age=31536000, immutable',
    'x-content-type-options': 'nosniff',
  });
  if (req.method === 'HEAD') return void res.end();
  // streamed: the bundle is megabytes, read once per browser thanks to the cache headers
  fs.createReadStream(asset.file)
    .on('error', () => res.destroy())
    .pipe(res);
}
