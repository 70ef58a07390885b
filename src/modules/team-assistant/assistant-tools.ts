// The assistant's tools, and which of them a member may use now: read tools at view level, draft
// tools (proposals a member approves) at edit level with a token that may write records, and the
// builder prefill for web clients.
import { z } from 'zod';
import type { ToolDeclaration } from '../../app/ai/index.ts';
import type { RequestContext } from '../../app/context.ts';
import { hasScope } from '../../app/auth/principal.ts';
import type { FeatureLevel } from '../../app/auth/feature-permissions.ts';
import { prepareMessagePrefill } from './builder-prefill.ts';
import { DRAFT_TOOLS } from './draft-tools.ts';
import { READ_TOOLS } from './read-tools.ts';
import type { AssistantTool } from './tool-types.ts';

export const ASSISTANT_TOOLS: readonly AssistantTool[] = [...READ_TOOLS, ...DRAFT_TOOLS, prepareMessagePrefill];

/**
 * The tools the caller may use now: their assistant level, the OAuth scopes of a token, and the
 * client (the builder prefill is for the web app: contextSnapshot.platform "WEB").
 */
export function toolsFor(ctx: RequestContext, level: FeatureLevel, web = false): AssistantTool[] {
  if (!hasScope(ctx.principal, 'records:read')) return [];
  // a token that may not write records may not draft writes either
  const drafts = level === 'EDIT' && hasScope(ctx.principal, 'records:write');
  return ASSISTANT_TOOLS.filter((t) => (t === prepareMessagePrefill ? web : t.level === 'VIEW' || drafts));
}

const TOOL_NAMES = new Set(ASSISTANT_TOOLS.map((t) => t.name));

/** A tool's name as a member may see it: one the model made up is not echoed. */
export const shownToolName = (name: string): string => (TOOL_NAMES.has(name) ? name : 'unknown_tool');

/** what the member's app said it is (contextSnapshot.platform) */
export const isWebClient = (contextSnapshot: unknown): boolean => (contextSnapshot as { platform?: unknown } | null)?.platform === 'WEB';

const declarations = new Map<AssistantTool, ToolDeclaration>();

/** A tool as the model is told of it; its JSON Schema is derived once, not at every step. */
export function declarationOf(tool: AssistantTool): ToolDeclaration {
  let declaration = declarations.get(tool);
  if (!declaration) declarations.set(tool, (declaration = { name: tool.name, description: tool.description, inputSchema: z.toJSONSchema(tool.input) as Record<string, unknown> }));
  return declaration;
}
