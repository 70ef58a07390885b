// The audit log in the route-table suites (test/support/area-kit.ts): its record history names the
// world's record.
import type { AreaTestKit } from '../support/area-kit.ts';

export const kit: AreaTestKit = {
  world: async ({ ids }) => ({ ids: { recordSimplyId: ids.dataRecordSimplyId! } }),
};
