// Filled in by its capability (issue 4).
import { defineRoutes } from '../route.ts';

export const webhookRoutes = defineRoutes([]);
