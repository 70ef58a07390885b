// Which language an agent reads in when they name none: their own interface language
// (PATCH /v1/users/me defaultInterfaceLanguageId), else English. Teams have no language setting
// of their own; credentials that act for nobody (API keys, session tokens) read English.
import type { RequestContext } from '../../app/context.ts';
import { personOf } from './conversation-access.ts';
import { canonicalLanguageTag } from './language-detect.ts';

export const FALLBACK_LANGUAGE = 'en';

export async function callerLanguage(ctx: RequestContext): Promise<string> {
  const person = personOf(ctx);
  if (person === null) return FALLBACK_LANGUAGE;
  const user = await ctx.services.prisma.user.findUnique({ where: { id: person }, select: { defaultInterfaceLanguageId: true } });
  const tag = user?.defaultInterfaceLanguageId ? canonicalLanguageTag(user.defaultInterfaceLanguageId) : null;
  return tag ?? FALLBACK_LANGUAGE;
}
