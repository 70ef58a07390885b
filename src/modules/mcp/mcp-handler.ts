// The MCP SDK's side of /mcp, loaded by the first MCP request (mcp-endpoint.ts): a server that
// nobody calls over MCP never holds the SDK (about 5 MiB of a server's heap).
import { createMcpHandler } from '@modelcontextprotocol/server';
import type { RequestContext, Services } from '../../app/context.ts';
import type { RunOperation } from '../../app/graphql/operation-runner.ts';
import { toolsFor } from './mcp-tools.ts';

export function mcpHandler(services: Services, run: RunOperation) {
  return createMcpHandler(
    (request) => {
      // the caller, checked before the SDK saw the request, travels in the request's auth info
      const served = request.authInfo?.extra as { context?: RequestContext; describe?: boolean } | undefined;
      if (!served?.context) throw new Error('an MCP request reached the server without its caller');
      return toolsFor(served.context, run, served.describe === true);
    },
    { legacy: 'stateless', onerror: (error) => services.logger.debug({ err: error }, 'MCP request refused') },
  );
}
