import { it } from 'vitest';
import { startTestServer } from '../support/server.ts';
it('timing', async () => {
  for (let i = 0; i < 3; i++) {
    const t0 = Date.now();
    const s = await startTestServer({ runJobs: i === 2 });
    const t1 = Date.now();
    await s.close();
    console.log('start', t1 - t0, 'close', Date.now() - t1);
  }
});
