// The served sites → src/modules/websites/serving.schema.ts (docs/api/websites.md "Previews", "Data
// views on a site"). The pages themselves are served outside /v1 (src/modules/websites/serve-endpoint.ts).
import { z } from 'zod';
import { operation } from '../../../src/app/graphql/fragments.ts';
import { previewSessionInput } from '../../../src/modules/websites/preview-sessions.ts';
import { route } from '../../route.ts';
import { updateOne } from '../../route-shapes.ts';
import { queryInt } from '../../schemas.ts';

const SITE = '/v1/websites/{websiteSimplyId}';

export const websiteServingRoutes = [
  updateOne({
    method: 'POST',
    path: `${SITE}/preview-sessions`,
    summary: 'Open a preview of a website’s drafts',
    description:
      '{ pageSimplyId? }: a previewUrl showing the drafts (pages, header, footer, campaign chrome) for 30 minutes, starting at the page given (else the home page); whoever holds the URL can look; never cached or indexed (EDITOR; websites:write)',
    name: 'CreateWebsitePreviewSession',
    inputType: 'JSON',
    body: previewSessionInput,
    example: { pageSimplyId: 'wpg-AB23-CD45-EF67' },
    select: 'websiteSimplyId pageSimplyId previewUrl expiresAt',
    status: 201,
  }),
  route({
    method: 'GET',
    path: `${SITE}/dataview-render/{dataViewSimplyId}`,
    summary: 'Render a data view for a website',
    description:
      'A published data view of the team without share-readiness blockers, as a data-view component shows it on the site: its display fields as columns and its first records (limit 1-100, default 25) under its saved filters and sort; 409 WEBSITE_DATA_VIEW_NOT_SHAREABLE naming what keeps it off the site (VIEWER; websites:read)',
    operation: operation`query WebsiteDataViewRender($id: String!, $view: String!, $limit: Int) { websiteDataViewRender(websiteSimplyId: $id, dataViewSimplyId: $view, limit: $limit) { dataViewSimplyId title columns { dataFieldSimplyId label dataType } rows total limit sortShortened } }`,
    query: z.strictObject({ limit: queryInt().describe('1-100, default 25') }),
    variables: ({ params, query }) => ({ id: params.websiteSimplyId, view: params.dataViewSimplyId, ...(query as object) }),
  }),
];
