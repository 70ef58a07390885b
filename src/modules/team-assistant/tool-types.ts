// What every assistant tool is: its declaration for the model, the level it needs, and how it runs
// for one call (the member's context as it is now, the team's knowledge sources, the call's ids).
import type { z } from 'zod';
import type { RequestContext } from '../../app/context.ts';
import { ApiError } from '../../app/errors.ts';
import type { FeatureLevel } from '../../app/auth/feature-permissions.ts';
import type { KnowledgeSources } from './settings.service.ts';

export interface SourceReference {
  kind: 'DATA_RECORD' | 'DATA_COLLECTION' | 'DATA_VIEW';
  simplyId: string;
  label: string;
}

export interface ToolOutcome {
  /** what the model reads */
  result: unknown;
  /** what the member reads about the call: no values, no filters, no ids beyond simplyIds */
  summary: string;
  sources: SourceReference[];
  /** a draft tool's proposal, awaiting the member's decision */
  proposalSimplyId?: string;
  /** something the member's app may open from the reply (never a write) */
  uiIntent?: UiIntent;
}

/** OPEN_RECORD, OPEN_DATA_VIEW, OPEN_DATA_CARD, OPEN_TEAM_WORKSPACE, OPEN_ADMIN_BUILDER or PREFILL_SUPPORTED_BUILDER, with what it opens */
export type UiIntent = { type: string } & Record<string, unknown>;

/** What a tool call knows besides its input: the team's knowledge sources and the call itself. */
export interface ToolUse {
  sources: KnowledgeSources;
  runId: bigint;
  userId: bigint;
  /** the model's id of the call: a draft made for it once is found again, never made twice */
  toolCallId: string;
}

export interface AssistantTool {
  name: string;
  description: string;
  input: z.ZodType;
  level: FeatureLevel;
  run(ctx: RequestContext, input: never, use: ToolUse): Promise<ToolOutcome>;
}

/** the text of a localized name (its first language when it has several) */
export const text = (value: unknown): string =>
  typeof value === 'string' ? value : value && typeof value === 'object' ? String(Object.values(value)[0] ?? '') : '';

/** A collection the tool may read, or the same refusal as an unknown one. */
export function allowedCollection(sources: KnowledgeSources, simplyId: string): void {
  if (sources.mode === 'SELECTED' && !sources.collections.includes(simplyId)) throw new ApiError(404, 'NOT_FOUND', `Data collection ${simplyId} was not found`);
}
