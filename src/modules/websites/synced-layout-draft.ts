// A page's draft as it reads (GET …/design and every answer carrying the draft): the stored draft
// with its synced-layout references filled with their layouts' current content (synced-layout.ts).
// A draft without references is answered as stored, without reading anything else.
import type { RequestContext } from '../../app/context.ts';
import type { WebsitePage } from '../../generated/prisma/client.ts';
import type { DesignDocument } from './design-document.ts';
import { expandSyncedLayouts, loadSyncedLayouts, syncedLayoutIds } from './synced-layout.ts';

export async function draftAsRead(ctx: RequestContext, page: Pick<WebsitePage, 'teamId' | 'websiteId' | 'draftDesign'>): Promise<unknown> {
  const draft = page.draftDesign as unknown as DesignDocument;
  const ids = syncedLayoutIds(draft);
  if (ids.length === 0) return draft;
  return expandSyncedLayouts(draft, await loadSyncedLayouts(ctx.services.prisma, page.teamId, page.websiteId, ids));
}
