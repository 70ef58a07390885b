// POST /v1/websites/{websiteSimplyId}/preview-sessions (EDITOR): a short-lived URL that shows the
// site's drafts (preview-page.ts), optionally starting at one page.
import { z } from 'zod';
import type { RequestContext } from '../../app/context.ts';
import { NotFoundError } from '../../app/errors.ts';
import { publicBaseUrl } from '../../app/public-address.ts';
import { parseInput } from '../../app/validate.ts';
import { issuePreviewToken } from './preview-token.ts';
import { pageHref } from './render-navigation.ts';
import { sitePages } from './serve-site.ts';
import { siteFor } from './website-access.ts';

export const previewSessionInput = z.strictObject({
  pageSimplyId: z.string({ message: 'must be a page simplyId' }).regex(/^wpg-[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}$/, 'must be a page simplyId (wpg-XXXX-XXXX-XXXX)').optional(),
});

export interface PreviewSession {
  websiteSimplyId: string;
  pageSimplyId: string | null;
  previewUrl: string;
  expiresAt: Date;
}

export async function createPreviewSession(ctx: RequestContext, websiteSimplyId: string, raw: unknown): Promise<PreviewSession> {
  const input = parseInput(previewSessionInput, raw ?? {}, 'Invalid preview session');
  const { site } = await siteFor(ctx, ctx.services.prisma, websiteSimplyId, 'EDITOR');
  let path = '/';
  if (input.pageSimplyId) {
    const page = (await sitePages(ctx.services, site)).find((p) => p.simplyId === input.pageSimplyId);
    if (!page) throw new NotFoundError('Website page', input.pageSimplyId);
    path = page.path;
  }
  const { token, expiresAt } = issuePreviewToken(ctx.services, site.teamId, site.simplyId);
  return { websiteSimplyId: site.simplyId, pageSimplyId: input.pageSimplyId ?? null, previewUrl: `${publicBaseUrl(ctx.services)}${pageHref(`/sites/preview/${token}`, path)}`, expiresAt };
}
