// Documented /v1 routes not built yet, by area (the areas and sections of the route checklist,
// documented-routes.json). The route checklist test keeps this list honest: a route built later
// must leave it, and no route may be both served and listed here. Methods "?" are the documents'
// (the method is not stated; any served method on the path counts).

export interface NotBuiltGroup {
  area: string;
  /** the platform document and its section */
  doc: number;
  section: string;
  /** "METHOD /path" exactly as documented */
  routes: readonly string[];
}

export const routesNotBuilt: readonly NotBuiltGroup[] = [
  {
    area: 'websites',
    doc: 3,
    section: '4.1',
    routes: [
      'POST /v1/website-pages/{pageSimplyId}/template/detach',
      'GET /v1/website-templates',
      'POST /v1/website-templates',
      'GET /v1/website-templates/{teamWebsiteTemplateSimplyId}',
      'PUT /v1/website-templates/{teamWebsiteTemplateSimplyId}',
      'DELETE /v1/website-templates/{teamWebsiteTemplateSimplyId}',
      'POST /v1/website-templates/{teamWebsiteTemplateSimplyId}/release',
      'POST /v1/website-templates/{teamWebsiteTemplateSimplyId}/websites',
      'POST /v1/websites/{websiteSimplyId}/template/apply',
      'POST /v1/websites/{websiteSimplyId}/template/disconnect',
    ],
  },
  {
    area: 'action-tags',
    doc: 3,
    section: '4.3',
    routes: [
      'GET /v1/action-tags',
      'POST /v1/action-tags',
      'GET /v1/action-tags/{simplyActionTagSimplyId}',
      'PUT /v1/action-tags/{simplyActionTagSimplyId}',
      'DELETE /v1/action-tags/{simplyActionTagSimplyId}',
      'GET /v1/action-tags/{simplyActionTagSimplyId}/scans',
      'POST /v1/action-tags/bulk-generate',
      'GET /v1/action-tags/analytics',
      'GET /v1/action-tags/{simplyActionTagSimplyId}/analytics',
      'GET /v1/action-tags/capabilities',
      'POST /v1/action-tags/imports/csv',
      'GET /v1/action-tags/exports/csv',
      'GET /v1/action-tags/analytics/export.csv',
      '? /v1/action-tags/domains',
      '? /v1/action-tags/domains/{actionTagsDomainSimplyId}/verify',
      '? /v1/action-tags/domains/{actionTagsDomainSimplyId}',
      '? /v1/action-tags/webhooks',
    ],
  },
  {
    area: 'space-bookings',
    doc: 3,
    section: '4.4',
    routes: [
      'POST /v1/svc-spaces/booking-links/{bookingLinkSimplyId}/availability',
      'POST /v1/svc-spaces/booking-links/{bookingLinkSimplyId}/slots',
      'POST /v1/svc-spaces/booking-links/{bookingLinkSimplyId}/slot-grid',
      'POST /v1/svc-spaces/booking-links/{bookingLinkSimplyId}/quote',
      'POST /v1/svc-spaces/booking-links/{bookingLinkSimplyId}/run',
      'GET /v1/svc-spaces/source-connections/{sourceConnectionSimplyId}/snapshot',
      'GET /v1/svc-spaces/source-connections/{sourceConnectionSimplyId}/booking-channels',
      'POST /v1/svc-spaces/source-connections/{sourceConnectionSimplyId}/booking-channels/provision',
      'POST /v1/svc-spaces/source-connections/{sourceConnectionSimplyId}/booking-availability',
      'POST /v1/svc-spaces/source-connections/{sourceConnectionSimplyId}/booking-quotes',
      'POST /v1/svc-spaces/source-connections/{sourceConnectionSimplyId}/booking-runs',
      'PATCH /v1/svc-spaces/source-connections/{sourceConnectionSimplyId}/bookings/{bookingRecordSimplyId}',
      'POST /v1/svc-spaces/source-connections/{sourceConnectionSimplyId}/webhook-subscriptions',
    ],
  },
];
