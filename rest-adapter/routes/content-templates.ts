// (routes of this area follow)
import { defineRoutes } from '../route.ts';

export const contentTemplateRoutes = defineRoutes([]);
