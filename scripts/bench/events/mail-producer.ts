// `node scripts/bench/events/mail-producer.ts <teamId> <count>`: queues `count` messages for the
// mail scenario the way the platform's own code does (services.mail.enqueue, the row and its
// mail.send job on one connection), all in one transaction, so the server's workers find the
// whole backlog at once when it commits. Run as a process of its own (another instance of the
// platform, not working jobs) with the server's settings in its environment; prints
// { queued, committedAt } as JSON.
import { loadConfig } from '../../../src/main/config.ts';
import { createLogger } from '../../../src/app/logger.ts';
import { closeServices, createServices } from '../../../src/main/services.ts';
import { wallClockMs } from './stats.ts';

const [teamIdArg, countArg] = process.argv.slice(2);
const count = Number(countArg);
if (!teamIdArg || !/^\d+$/.test(teamIdArg) || !Number.isInteger(count) || count < 1) {
  process.stderr.write('usage: mail-producer.ts <teamId> <count>\n');
  process.exit(2);
}
const teamId = BigInt(teamIdArg);
const config = loadConfig();
if (!config.DATABASE_URL || !config.SMTP_URL) throw new Error('mail-producer needs DATABASE_URL and SMTP_URL');
const services = await createServices({ config, databaseUrl: config.DATABASE_URL, migrate: false, logger: createLogger('warn', 'bench-mail-producer') });
try {
  await services.jobs.start({ work: false });
  const client = await services.pool.connect();
  let committedAt: number;
  try {
    await client.query('BEGIN');
    for (let i = 0; i < count; i++) {
      await services.mail.enqueue(
        { teamId, to: [`reader-${i}@example.test`], subject: `Bench message ${i}`, text: `Message ${i} of the events bench.`, source: 'SYSTEM', sourceId: 'bench-events' },
        client,
      );
    }
    await client.query('COMMIT');
    committedAt = wallClockMs();
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
  process.stdout.write(`${JSON.stringify({ queued: count, committedAt })}\n`);
} finally {
  await closeServices(services);
}
