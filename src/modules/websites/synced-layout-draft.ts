// A design as it reads (GET …/design and every answer carrying the draft, translation, the
// translated rendering): the stored design with its synced-layout references filled with their
// layouts' current content (synced-layout.ts). A design without references is answered as stored,
// without reading anything else.
import type { RequestContext } from '../../app/context.ts';
import type { WebsitePage } from '../../generated/prisma/client.ts';
import type { DesignDocument } from './design-document.ts';
import { expandSyncedLayouts, loadSyncedLayouts, syncedLayoutIds } from './synced-layout.ts';

type LayoutReader = Parameters<typeof loadSyncedLayouts>[0];

export async function withSyncedLayouts<D extends DesignDocument | null>(db: LayoutReader, teamId: bigint, websiteId: bigint, design: D): Promise<D> {
  const ids = design ? syncedLayoutIds(design) : [];
  if (!design || ids.length === 0) return design;
  return expandSyncedLayouts(design, await loadSyncedLayouts(db, teamId, websiteId, ids)) as D;
}

export function draftAsRead(ctx: RequestContext, page: Pick<WebsitePage, 'teamId' | 'websiteId' | 'draftDesign'>): Promise<unknown> {
  return withSyncedLayouts(ctx.services.prisma, page.teamId, page.websiteId, page.draftDesign as unknown as DesignDocument);
}
