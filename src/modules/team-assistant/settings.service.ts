// The team's assistant settings (docs/api/team-assistant.md "Settings"). Knowledge sources say which
// collections the assistant may read for the team (never more than each member may read: a source
// narrows, it does not grant); the support scope says whether members may hand a session over to
// the team's responders and on which topics.
import type { RequestContext, Services } from '../../app/context.ts';
import { ValidationError } from '../../app/errors.ts';
import { parseInput } from '../../app/validate.ts';
import { requireSettingsAccess } from './team-assistant.access.ts';
import { knowledgeSourcesInput, supportScopeInput, type KnowledgeSources, type SupportScope } from './team-assistant.input.ts';

export type { KnowledgeSources, SupportScope };


const DEFAULT_SOURCES: KnowledgeSources = { mode: 'ALL_READABLE', collections: [], views: [] };
const DEFAULT_SCOPE: SupportScope = { enabled: false, topics: [], instructions: null };

/** The settings of a team as the runs read them (defaults when never set). */
export async function teamAssistantSettings(services: Services, teamId: bigint): Promise<{ knowledgeSources: KnowledgeSources; supportScope: SupportScope }> {
  const row = await services.prisma.assistantSettings.findUnique({ where: { teamId } });
  return {
    knowledgeSources: (row?.knowledgeSources as KnowledgeSources | undefined) ?? DEFAULT_SOURCES,
    supportScope: (row?.supportScope as SupportScope | undefined) ?? DEFAULT_SCOPE,
  };
}

export async function getKnowledgeSources(ctx: RequestContext): Promise<KnowledgeSources> {
  return (await teamAssistantSettings(ctx.services, requireSettingsAccess(ctx))).knowledgeSources;
}

export async function putKnowledgeSources(ctx: RequestContext, input: unknown): Promise<KnowledgeSources> {
  const teamId = requireSettingsAccess(ctx);
  const sources = parseInput(knowledgeSourcesInput, input, 'Invalid knowledge sources');
  // every named collection must be one of the team's (unknown ones are named, not silently kept)
  const schema = await ctx.services.schemas.get(teamId);
  const known = new Set([...schema.collectionsById.values()].map((c) => c.simplyId));
  const unknown = sources.collections.filter((id) => !known.has(id));
  const views = new Set((await ctx.services.prisma.dataView.findMany({ where: { teamId, simplyId: { in: sources.views } }, select: { simplyId: true } })).map((v) => v.simplyId));
  const details = [
    ...unknown.map((id) => ({ field: 'collections', message: `${id} is not a collection of this team` })),
    ...sources.views.filter((id) => !views.has(id)).map((id) => ({ field: 'views', message: `${id} is not a data view of this team` })),
  ];
  if (details.length > 0) throw new ValidationError('Unknown knowledge sources', details);
  const value = { ...sources, collections: [...new Set(sources.collections)], views: [...new Set(sources.views)] };
  await ctx.services.prisma.assistantSettings.upsert({ where: { teamId }, create: { teamId, knowledgeSources: value }, update: { knowledgeSources: value } });
  return value;
}

export async function getSupportScope(ctx: RequestContext): Promise<SupportScope> {
  return (await teamAssistantSettings(ctx.services, requireSettingsAccess(ctx))).supportScope;
}

export async function putSupportScope(ctx: RequestContext, input: unknown): Promise<SupportScope> {
  const teamId = requireSettingsAccess(ctx);
  const scope = parseInput(supportScopeInput, input, 'Invalid support scope');
  await ctx.services.prisma.assistantSettings.upsert({ where: { teamId }, create: { teamId, supportScope: scope }, update: { supportScope: scope } });
  return scope;
}
