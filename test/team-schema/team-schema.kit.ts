// The team schema in the route-table suites (test/support/area-kit.ts): how its reads that need a
// query are read.
import type { AreaTestKit } from '../support/area-kit.ts';

export const kit: AreaTestKit = {
  readQueries: {
    'GET /v1/team-schema/versions/compare': () => 'from=0&to=1',
    // the schema accepts none, the service wants exactly one of sinceVersion and since
    'GET /v1/team-schema/changed': () => 'sinceVersion=0',
  },
};
