// A DOCUMENT_GENERATION attempt that dies between storing a record's PDF and noting it (the worst
// moment: the file exists, nothing says so) is run again, as pg-boss runs a job again after a
// crash: the record already written is skipped, the interrupted one gets the file that was
// already stored (the PDF bytes are the same, so no second file), the rest are done, and every
// APPEND happened exactly once. No worker runs here: the attempts are driven by hand.
import { expect, it } from 'vitest';
import { runTask as runTaskAttempt } from '../../src/modules/background-tasks/background-tasks.jobs.ts';
import { adminOf, createTask, readTask } from '../support/background-task-fixtures.ts';
import { expectOk } from '../support/expect-envelope.ts';
import { createRecord, readRecord } from '../support/record-fixtures.ts';
import { useServer } from '../support/use-server.ts';
import { documentTemplate, GEN, HISTORY, peopleWithFiles } from './document-generation-support.ts';

// the job is queued in this file's own database, where no worker takes it
const suite = useServer({ teams: 1, runJobs: false, ownDatabase: 'document_generation_crash' });

it('a run that crashed after storing a PDF resumes without a second file or a second APPEND', { timeout: 90_000 }, async () => {
  const { server } = suite;
  const team = suite.teams[0];
  const { prisma, pool } = server.app.services;
  const people = await peopleWithFiles(server, team);
  const f = people.fields;
  const names = ['Ada', 'Grace', 'Alan'];
  const ids: string[] = [];
  for (const name of names) ids.push((await createRecord(server, team.apiKey, people.id, { [f.first_name!]: name })).id);
  const template = await documentTemplate(server, team, people);
  const created = await createTask(server, adminOf(team), GEN, {
    contentTemplateSimplyId: template,
    dataCollectionSimplyId: people.id,
    dataRecordSimplyIds: ids,
    destination: { dataFieldSimplyId: f.papers, writeMode: 'APPEND' },
  });
  const task = await prisma.backgroundTask.findFirstOrThrow({ where: { teamId: team.teamId, simplyId: created.backgroundTaskSimplyId } });
  const job = { data: { teamId: String(task.teamId), taskId: String(task.id) } };
  const files = () => prisma.storedFile.count({ where: { teamId: team.teamId } });

  // attempt 1 dies when it is about to note the second record's stored file
  const query = pool.query.bind(pool);
  let noted = 0;
  pool.query = ((text: unknown, ...rest: unknown[]) => {
    if (typeof text === 'string' && text.includes(`UPDATE "RecordTaskOutput" SET status = 'SUCCEEDED'`) && ++noted === 2) {
      return Promise.reject(new Error('worker lost (simulated)'));
    }
    return (query as (...args: unknown[]) => unknown)(text, ...rest);
  }) as typeof pool.query;
  try {
    await expect(runTaskAttempt(server.app.services, { ...job, retryCount: 0 })).rejects.toThrow('worker lost');
  } finally {
    pool.query = query;
  }
  const half = await readTask(server, adminOf(team), created.backgroundTaskSimplyId);
  expect(half.status).toBe('PROCESSING');
  expect(half.progress).toMatchObject({ processedCount: 1, successCount: 1 });
  expect(await files()).toBe(2);
  expect((await readRecord(server, team.apiKey, ids[0]!)).fields[f.papers!]).toHaveLength(1);
  expect((await readRecord(server, team.apiKey, ids[1]!)).fields[f.papers!] ?? null).toBeNull();

  // attempt 2 (pg-boss's retry) finishes the work
  await runTaskAttempt(server.app.services, { ...job, retryCount: 1 });
  const done = await readTask(server, adminOf(team), created.backgroundTaskSimplyId);
  expect(done.status).toBe('COMPLETED');
  expect(done.progress).toEqual({ processedCount: 3, totalCount: 3, successCount: 3, failureCount: 0 });
  expect(await files()).toBe(3);
  const held = [];
  for (const id of ids) {
    const papers = (await readRecord(server, team.apiKey, id)).fields[f.papers!];
    expect(papers, id).toHaveLength(1);
    held.push(papers[0]);
  }
  expect(new Set(held).size).toBe(3);
  // one history entry and one output per record, each pointing at the file its record holds
  for (const [i, id] of ids.entries()) {
    const history = expectOk(await server.request('GET', `${HISTORY}?dataRecordSimplyId=${id}`, { token: team.userToken, teamId: team.teamSimplyId }));
    expect(history.total).toBe(1);
    expect(history.tasks[0].outputs).toHaveLength(1);
    expect(history.tasks[0].outputs[0]).toMatchObject({ status: 'SUCCEEDED', destinationWriteStatus: 'WRITTEN', file: { fileSimplyId: held[i] } });
  }
  // a third run of the finished task's job does nothing
  await runTaskAttempt(server.app.services, { ...job, retryCount: 2 });
  expect(await files()).toBe(3);
});
