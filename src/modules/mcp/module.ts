// The hosted MCP server: POST /mcp speaks the Model Context Protocol (both protocol revisions) with
// tools over the team's collections and records, for API keys and OAuth tokens issued for /mcp;
// its protected-resource metadata under /.well-known/oauth-protected-resource.
import { defineModule } from '../../app/module.ts';
import { mcpEndpoints, setMcpBaseUrl } from './mcp-endpoint.ts';

export const mcpModule = defineModule({
  name: 'mcp',
  description: 'A hosted Model Context Protocol server: tools over the team\'s collections and records, for API keys and OAuth tokens issued for /mcp.',
  httpEndpoints: mcpEndpoints,
  onListening: setMcpBaseUrl,
});
