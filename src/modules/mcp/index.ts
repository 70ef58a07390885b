// The public API of the mcp area: all another area may import from it (test/app/module-structure.test.ts).
// The hosted MCP server is reached over HTTP only; other areas need nothing of it.
export { MCP_PATH, RESOURCE_METADATA_PATH } from './mcp-endpoint.ts';
