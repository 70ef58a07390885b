// npm run routes — the route checklist as a table: per area of the documents, how many documented
// /v1 routes are served, then the totals and the served routes the documents do not list
// (extensions, with their reasons). Exits 1 when the checklist does not hold (see
// test/rest-adapter/route-coverage.test.ts for the rules).
import { routeChecklist, routeKey } from '../rest-adapter/openapi-checklist.ts';
import { routes } from '../src/main/modules.ts';

const checklist = routeChecklist(routes);
const rows = [...checklist.byArea].sort((a, b) => a.area.localeCompare(b.area));
const width = Math.max(...rows.map((r) => r.area.length), 'total'.length);
const line = (area: string, served: number, documented: number) =>
  `${area.padEnd(width)}  ${String(served).padStart(6)}  ${String(documented).padStart(10)}  ${String(documented - served).padStart(9)}  ${documented === 0 ? '' : `${Math.round((100 * served) / documented)}%`.padStart(4)}`;

console.log(`${'area'.padEnd(width)}  ${'served'.padStart(6)}  ${'documented'.padStart(10)}  ${'not built'.padStart(9)}`);
for (const row of rows) console.log(line(row.area, row.served, row.documented));
const served = rows.reduce((n, r) => n + r.served, 0);
const documented = rows.reduce((n, r) => n + r.documented, 0);
console.log('-'.repeat(width + 38));
console.log(line('total', served, documented));
console.log(`\nserved routes: ${routes.length} (${routes.length - checklist.extensions.length} documented, ${checklist.extensions.length} extensions)`);
console.log('\nextensions (served, not in the documents):');
for (const { route, reason } of checklist.extensions) console.log(`  ${routeKey(route).padEnd(80)} ${reason ?? 'NO REASON GIVEN (add it to the extensions of its route file: defineRoutes)'}`);

const problems = [
  ...checklist.missing.map((d) => `documented, neither served nor in routes-not-built.ts: ${routeKey(d)} (${d.area}, Document ${d.doc} §${d.section})`),
  ...checklist.both.map((d) => `served and still in routes-not-built.ts: ${routeKey(d)}`),
  ...checklist.unknownNotBuilt.map((k) => `in routes-not-built.ts but not documented: ${k}`),
  ...checklist.extensions.filter((e) => !e.reason).map((e) => `extension without a reason: ${routeKey(e.route)}`),
  ...checklist.staleExtensions.map((k) => `listed extension that is not served (or is documented): ${k}`),
];
if (problems.length > 0) {
  console.log('\nchecklist problems:');
  for (const p of problems) console.log(`  ${p}`);
  process.exit(1);
}
