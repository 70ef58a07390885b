// The assistant's tools, and which of them a member may use now: read tools at view level, draft
// tools (proposals a member approves) at edit level with a token that may write records.
import type { RequestContext } from '../../app/context.ts';
import { hasScope } from '../../app/auth/principal.ts';
import type { FeatureLevel } from '../../app/auth/feature-permissions.ts';
import { DRAFT_TOOLS } from './draft-tools.ts';
import { READ_TOOLS } from './read-tools.ts';
import type { AssistantTool } from './tool-types.ts';

export const ASSISTANT_TOOLS: readonly AssistantTool[] = [...READ_TOOLS, ...DRAFT_TOOLS];

/** The tools the caller may use now: their assistant level, and the OAuth scopes of a token. */
export function toolsFor(ctx: RequestContext, level: FeatureLevel): AssistantTool[] {
  if (!hasScope(ctx.principal, 'records:read')) return [];
  // a token that may not write records may not draft writes either
  const drafts = level === 'EDIT' && hasScope(ctx.principal, 'records:write');
  return ASSISTANT_TOOLS.filter((t) => t.level === 'VIEW' || drafts);
}
