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

export const routesNotBuilt: readonly NotBuiltGroup[] = [];
