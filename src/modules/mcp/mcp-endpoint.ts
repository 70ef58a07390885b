// The hosted MCP server at POST /mcp: Streamable HTTP through the official SDK, the 2026-07-28
// revision (stateless, server/discover) and the 2025 `initialize` handshake on the same endpoint,
// every request served by a fresh server for its caller, so nothing ties a client to one
// instance. The caller is a scoped API key (or a session token, or a signed-in user with X-Team-Id)
// or an OAuth access token issued for /mcp; without one: 401 with the pointer to the protected
// resource metadata (RFC 9728), served at /.well-known/oauth-protected-resource[/mcp]. The SDK
// itself is loaded by the first MCP request (mcp-handler.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { OAUTH_SCOPES } from '../../app/auth/oauth-scopes.ts';
import type { RequestContext, Services } from '../../app/context.ts';
import { createContext, releaseContext } from '../../app/create-context.ts';
import { toPublicError } from '../../app/error-mapping.ts';
import { UnauthenticatedError } from '../../app/errors.ts';
import { sendError, sendJson } from '../../app/http/envelope.ts';
import { readUpTo } from '../../app/http/read-body.ts';
import { requestCaller } from '../../app/http/request-caller.ts';
import { operationRunner } from '../../app/graphql/operation-runner.ts';
import type { AppFaces, HttpEndpoint } from '../../app/module.ts';
import type { mcpHandler as McpHandler } from './mcp-handler.ts';

export const MCP_PATH = '/mcp';
export const RESOURCE_METADATA_PATH = '/.well-known/oauth-protected-resource';

const baseUrls = new WeakMap<Services, string>();

export function setMcpBaseUrl(services: Services, baseUrl: string): void {
  baseUrls.set(services, baseUrl.replace(/\/+$/, ''));
}

export function mcpEndpoints(services: Services, { schema, rateLimited }: AppFaces): HttpEndpoint[] {
  const run = operationRunner(schema);
  let handler: Promise<ReturnType<typeof McpHandler>> | undefined;
  const sdk = () => (handler ??= import('./mcp-handler.ts').then((m) => m.mcpHandler(services, run)));
  const base = () => baseUrls.get(services) ?? '';
  const metadataUrl = () => `${base()}${RESOURCE_METADATA_PATH}${MCP_PATH}`;

  const serveMcp = async (req: IncomingMessage, res: ServerResponse, url: URL, requestId: string): Promise<void> => {
    if (url.pathname !== MCP_PATH) return sendError(res, requestId, { status: 404, code: 'NOT_FOUND', message: `No route for ${req.method} ${url.pathname}` });
    const limited = rateLimited(req);
    if (limited) return sendError(res, requestId, toPublicError(limited));
    let context: RequestContext;
    try {
      if (!req.headers.authorization) throw new UnauthenticatedError('The MCP endpoint needs an API key or an OAuth access token issued for /mcp');
      context = await createContext(services, { ...requestCaller(req, url, requestId, services.config.TRUST_PROXY), resource: 'mcp' });
      if (context.principal.kind === 'ANONYMOUS') throw new UnauthenticatedError();
    } catch (error) {
      const publicError = toPublicError(error);
      const challenge: Record<string, string> =
        publicError.status === 401 ? { 'www-authenticate': `Bearer resource_metadata="${metadataUrl()}"${req.headers.authorization ? ', error="invalid_token"' : ''}` } : {};
      return sendError(res, requestId, { ...publicError, headers: { ...publicError.headers, ...challenge } });
    }
    try {
      const body = req.method === 'POST' ? await readUpTo(req, services.config.BODY_LIMIT_BYTES) : undefined;
      const request = new Request(`${base()}${MCP_PATH}`, { method: req.method, headers: headersOf(req), body: body && new Uint8Array(body) });
      const response = await (await sdk()).fetch(request, {
        authInfo: {
          token: 'checked',
          clientId: context.principal.oauth?.clientId ?? context.principal.credentialId ?? '',
          scopes: [...(context.principal.scopes ?? OAUTH_SCOPES)],
          extra: { context, describe: body !== undefined && listsTools(body) },
        },
      });
      await writeResponse(res, response);
    } catch (error) {
      const publicError = toPublicError(error);
      if (publicError.unexpected) services.logger.error({ err: error, requestId }, 'MCP request failed');
      sendError(res, requestId, publicError);
    } finally {
      releaseContext(context);
    }
  };

  const serveMetadata = async (req: IncomingMessage, res: ServerResponse, url: URL, requestId: string): Promise<void> => {
    if (url.pathname !== RESOURCE_METADATA_PATH && url.pathname !== `${RESOURCE_METADATA_PATH}${MCP_PATH}`) {
      return sendError(res, requestId, { status: 404, code: 'NOT_FOUND', message: `No route for ${req.method} ${url.pathname}` });
    }
    sendJson(
      res,
      200,
      {
        resource: `${base()}${MCP_PATH}`,
        authorization_servers: [base()],
        scopes_supported: [...OAUTH_SCOPES],
        bearer_methods_supported: ['header'],
        resource_name: 'Team data over the Model Context Protocol',
      },
      { 'cache-control': 'public, max-age=300' },
    );
  };

  return [
    { prefix: MCP_PATH, route: MCP_PATH, handle: serveMcp },
    { prefix: RESOURCE_METADATA_PATH, route: RESOURCE_METADATA_PATH, handle: serveMetadata },
  ];
}

function headersOf(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name.startsWith(':')) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return headers;
}

/** Whether the JSON-RPC body lists the tools (then their descriptions name the team's collections). */
function listsTools(body: Buffer): boolean {
  try {
    const message = JSON.parse(body.toString('utf8')) as { method?: unknown } | { method?: unknown }[];
    return (Array.isArray(message) ? message : [message]).some((m) => m?.method === 'tools/list');
  } catch {
    return false;
  }
}

async function writeResponse(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  // an event stream is passed on as it comes; any other answer goes out whole, in one write with
  // its length (headers and a body written apart wait on each other's TCP acknowledgements)
  if (!response.body || !(headers['content-type'] ?? '').startsWith('text/event-stream')) {
    const body = Buffer.from(await response.arrayBuffer());
    res.writeHead(response.status, { ...headers, 'content-length': String(body.length) });
    return void res.end(body);
  }
  res.writeHead(response.status, headers);
  await new Promise<void>((resolve, reject) => {
    Readable.fromWeb(response.body as import('node:stream/web').ReadableStream).on('error', reject).pipe(res).on('finish', resolve).on('error', reject);
  });
}
