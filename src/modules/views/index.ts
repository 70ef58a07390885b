// The public API of the views area: all another area may import from it (test/app/module-structure.test.ts).
// Its manifest is module.ts; every other file of the folder is private to the area.
export { dataViewId } from './views.ids.ts';
export { readViewConfig } from './views.input.ts';
export { labelOf, listViews } from './views.service.ts';
// a view placed on a team's website (websites' data-view component): read as its embed page reads it
export { findViewOfTeam } from './views.public-tokens.sql.ts';
export { loadSharedView } from './views.shared-view.ts';
export { publishBlockers } from './views.readiness.ts';
export { embedRows } from './views.embed-rows.ts';
