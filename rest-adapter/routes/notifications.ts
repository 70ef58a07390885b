// /v1/notifications → src/modules/notifications/*.schema.ts
import { defineRoutes } from '../route.ts';

export const notificationRoutes = defineRoutes([]);
