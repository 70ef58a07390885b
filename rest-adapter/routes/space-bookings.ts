// /v1/svc-spaces → src/modules/space-bookings/space-bookings.schema.ts (docs/api/space-bookings.md).
import { defineRoutes, type RouteExtension } from '../route.ts';
import { publicLinkRoutes } from './space-bookings/public-links.ts';
import { CONNECTION, CONNECTIONS, sourceConnectionRoutes } from './space-bookings/source-connections.ts';

const SETUP = 'source-connection setup: the documents leave creating connections and their mapping "not shown" (docs/api/space-bookings.md "Setting up, from scratch")';

const EXTENSIONS: Record<string, RouteExtension> = {
  [`POST ${CONNECTIONS}`]: { reason: SETUP },
  [`GET ${CONNECTIONS}`]: { reason: SETUP },
  [`GET ${CONNECTION}`]: { reason: SETUP },
  [`PUT ${CONNECTION}/mapping`]: { reason: SETUP },
};

export const spaceBookingRoutes = defineRoutes([...sourceConnectionRoutes, ...publicLinkRoutes], EXTENSIONS);
