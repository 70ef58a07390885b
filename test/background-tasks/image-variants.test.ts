// IMAGE_VARIANT_GENERATION: the files area's variant rendering as a visible background task.
// Uploads go through the real flow (intent, signed post, complete, promotion) with the job
// workers running, so the task is created by the files area's hook in the promotion's wake and
// run by the background-task runner; regeneration goes through POST /v1/background-tasks.
import { describe, expect, it } from 'vitest';
import { addMember } from '../support/fixtures.ts';
import { adminOf, createTask, untilTaskDone, type Member } from '../support/background-task-fixtures.ts';
import { heic, png } from '../support/file-samples.ts';
import { uploadFile } from '../support/file-uploads.ts';
import { untilWith } from '../support/until.ts';
import { renderVersionVariants } from '../../src/modules/files/variant-jobs.ts';
import { useServer } from '../support/use-server.ts';

const { server, teams } = useServer({ teams: 2, runJobs: true, ownDatabase: 'bt_image_variants' });
const untilLong = untilWith({ timeoutMs: 60_000, everyMs: 50 });

/** Uploads bytes as the given credential and answers the new file's simplyId. */
async function upload(token: string, bytes: Buffer, contentType: string, filename: string, teamId?: string): Promise<string> {
  const done = await uploadFile(server, token, bytes, { contentType, filename, teamId });
  if (done.status !== 'COMPLETED') throw new Error(`upload ended ${done.status}: ${done.rejectionReason} ${done.rejectionMessage}`);
  return done.fileSimplyId;
}

/** The variant task of a file's version, as its row (the platform starts it: nobody gets its id back). */
async function variantTaskOf(fileSimplyId: string, versionNumber = 1) {
  let found: { simplyId: string; userId: bigint | null } | null = null;
  await untilLong(`the variant task of ${fileSimplyId}`, async () => {
    const rows = await server.app.services.prisma.backgroundTask.findMany({ where: { taskType: 'IMAGE_VARIANT_GENERATION' }, select: { simplyId: true, userId: true, queueData: true } });
    found = rows.find((r) => (r.queueData as any).fileSimplyId === fileSimplyId && (r.queueData as any).versionNumber === versionNumber) ?? null;
    return found !== null;
  });
  return found!;
}

async function variantsOf(who: Member, fileSimplyId: string): Promise<any[]> {
  const response = await server.request('GET', `/v1/files/${fileSimplyId}/variants`, { token: who.token, teamId: who.teamId });
  expect(response.status, response.text).toBe(200);
  return response.body.data;
}

describe('IMAGE_VARIANT_GENERATION', () => {
  it('is provided to the files area as its variant work', () => {
    expect(typeof server.app.services.imageVariantWork?.queue).toBe('function');
  });

  it("an image a member uploads gets a task of the uploader's: 0/1 → 1/1, result { fileSimplyId, versionNumber, variantCount }, the variants stored", async () => {
    const admin = adminOf(teams[0]);
    const fileSimplyId = await upload(admin.token, await png(640, 480), 'image/png', 'photo.png', admin.teamId);
    const row = await variantTaskOf(fileSimplyId);
    const admins = await server.app.services.prisma.user.findUniqueOrThrow({ where: { simplyId: teams[0].userSimplyId } });
    expect(row.userId).toBe(admins.id);
    const task = await untilTaskDone(server, admin, row.simplyId);
    const variants = await variantsOf(admin, fileSimplyId);
    expect(variants.length).toBeGreaterThan(0);
    expect(task).toMatchObject({
      enumBackgroundTaskTypeId: 'IMAGE_VARIANT_GENERATION',
      status: 'COMPLETED',
      progress: { processedCount: 1, totalCount: 1 },
      result: { fileSimplyId, versionNumber: 1, variantCount: variants.length },
      errorCount: 0,
      errors: [],
    });
    expect(task.completedAt).not.toBeNull();
    // the uploader's own task: in their list, filtered by type
    const list = await server.request('GET', '/v1/background-tasks?enumBackgroundTaskTypeId=IMAGE_VARIANT_GENERATION', { token: admin.token, teamId: admin.teamId });
    expect(list.status, list.text).toBe(200);
    expect(list.body.data.tasks.map((t: any) => t.backgroundTaskSimplyId)).toContain(row.simplyId);
  });

  it('an image uploaded with an API key gets a platform task (no starter), seen by team admins', async () => {
    const admin = adminOf(teams[0]);
    const fileSimplyId = await upload(teams[0].apiKey, await png(200, 100), 'image/png', 'key.png');
    const row = await variantTaskOf(fileSimplyId);
    expect(row.userId).toBeNull();
    const task = await untilTaskDone(server, admin, row.simplyId);
    expect(task.status).toBe('COMPLETED');
    expect(task.result.variantCount).toBeGreaterThan(0);
    // a member without a role sees only their own tasks: not this one
    const member = await addMember(server, teams[0]);
    const hidden = await server.request('GET', `/v1/background-tasks/${row.simplyId}`, { token: member.token, teamId: admin.teamId });
    expect(hidden.status).toBe(404);
  });

  it('POST /v1/background-tasks { fileSimplyId } regenerates the current version: a new set replaces the old', async () => {
    const admin = adminOf(teams[0]);
    const fileSimplyId = await upload(admin.token, await png(320, 240), 'image/png', 'again.png', admin.teamId);
    await untilTaskDone(server, admin, (await variantTaskOf(fileSimplyId)).simplyId);
    const before = await variantsOf(admin, fileSimplyId);
    const created = await createTask(server, admin, 'IMAGE_VARIANT_GENERATION', { fileSimplyId });
    expect(created).toMatchObject({ enumBackgroundTaskTypeId: 'IMAGE_VARIANT_GENERATION', progress: { processedCount: 0, totalCount: 1 } });
    const task = await untilTaskDone(server, admin, created.backgroundTaskSimplyId);
    expect(task).toMatchObject({ status: 'COMPLETED', result: { fileSimplyId, versionNumber: 1, variantCount: before.length } });
    const after = await variantsOf(admin, fileSimplyId);
    expect(after.map((v) => v.variantType).sort()).toEqual(before.map((v) => v.variantType).sort());
    // one set, newly written: none of the old rows is left
    const oldIds = new Set(before.map((v) => v.fileVariantSimplyId));
    expect(after.some((v) => oldIds.has(v.fileVariantSimplyId))).toBe(false);
  });

  it('renderings of one file at the same moment (the upload\'s own and regenerates) all complete and leave one set', async () => {
    const admin = adminOf(teams[0]);
    const fileSimplyId = await upload(admin.token, await png(240, 180), 'image/png', 'racing.png', admin.teamId);
    const file = await server.app.services.prisma.storedFile.findUniqueOrThrow({ where: { teamId_simplyId: { teamId: teams[0].teamId, simplyId: fileSimplyId } } });
    // straight at the rendering, several at once, beside the upload's own task and two regenerate tasks
    const created = await Promise.all([1, 2].map(() => createTask(server, admin, 'IMAGE_VARIANT_GENERATION', { fileSimplyId })));
    const direct = await Promise.all([1, 2, 3].map(() => renderVersionVariants(server.app.services, file.id, 1)));
    for (const outcome of direct) expect(outcome).toMatchObject({ skipped: null, variantCount: expect.any(Number) });
    const tasks = [await variantTaskOf(fileSimplyId), ...created.map((t) => ({ simplyId: t.backgroundTaskSimplyId }))];
    for (const task of tasks) expect(await untilTaskDone(server, admin, task.simplyId)).toMatchObject({ status: 'COMPLETED', errorCount: 0 });
    const variants = await variantsOf(admin, fileSimplyId);
    expect(variants.length).toBe(direct[0]!.variantCount);
    expect(new Set(variants.map((v) => `${v.variantType}/${v.format}`)).size).toBe(variants.length);
  });

  it('the same over GraphQL: createBackgroundTask, then backgroundTask', async () => {
    const admin = adminOf(teams[0]);
    const fileSimplyId = await upload(admin.token, await png(100, 100), 'image/png', 'gql.png', admin.teamId);
    const created = await server.graphql<any>(
      `mutation ($input: CreateBackgroundTaskInput!) { createBackgroundTask(input: $input) { backgroundTaskSimplyId status } }`,
      { input: { enumBackgroundTaskTypeId: 'IMAGE_VARIANT_GENERATION', queueData: { fileSimplyId } } },
      { token: admin.token, teamId: admin.teamId },
    );
    expect(created.errors, JSON.stringify(created.errors)).toBeUndefined();
    const id = created.data.createBackgroundTask.backgroundTaskSimplyId;
    await untilTaskDone(server, admin, id);
    const read = await server.graphql<any>(`query ($id: String!) { backgroundTask(backgroundTaskSimplyId: $id) { status result } }`, { id }, { token: admin.token, teamId: admin.teamId });
    expect(read.errors, JSON.stringify(read.errors)).toBeUndefined();
    expect(read.data.backgroundTask).toMatchObject({ status: 'COMPLETED', result: { fileSimplyId, variantCount: expect.any(Number) } });
  });

  it('an image that cannot be decoded ends FAILED with IMAGE_UNREADABLE, once (no retry)', async () => {
    const admin = adminOf(teams[0]);
    // a valid HEIC container without pixels: it passes inspection, and no decoder here reads it
    const fileSimplyId = await upload(admin.token, heic(), 'image/heic', 'broken.heic', admin.teamId);
    const row = await variantTaskOf(fileSimplyId);
    const task = await untilTaskDone(server, admin, row.simplyId);
    expect(task).toMatchObject({ status: 'FAILED', errorCount: 1, progress: { processedCount: 0, totalCount: 1 } });
    expect(task.errors).toEqual([expect.objectContaining({ errorType: 'IMAGE_UNREADABLE', errorContext: { fileSimplyId, versionNumber: 1 } })]);
    expect(task.errors[0].errorMessage).toMatch(/cannot be decoded/);
    // nothing of the worker's machine in what is answered
    expect(JSON.stringify(task)).not.toMatch(/\/tmp\/|storageKey|uploads\//);
    const attempts = await server.app.services.prisma.backgroundTask.findUniqueOrThrow({ where: { teamId_simplyId: { teamId: teams[0].teamId, simplyId: row.simplyId } } });
    expect(attempts.attempts).toBe(1);
    expect(await variantsOf(admin, fileSimplyId)).toEqual([]);
  });

  it('malformed queueData is a 400 naming the field; a file that is not an image, 400; an unknown or other team’s file, 404', async () => {
    const admin = adminOf(teams[0]);
    const post = (who: Member, queueData: unknown) =>
      server.request('POST', '/v1/background-tasks', { token: who.token, teamId: who.teamId, body: { enumBackgroundTaskTypeId: 'IMAGE_VARIANT_GENERATION', queueData } });
    const missing = await post(admin, {});
    expect(missing.status, missing.text).toBe(400);
    expect(missing.body.error.code).toBe('VALIDATION_ERROR');
    expect(missing.body.error.details).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'queueData.fileSimplyId' })]));
    const extra = await post(admin, { fileSimplyId: 'file-AAAA-BBBB-CCCC', storageKey: 'uploads/x' });
    expect(extra.status).toBe(400);
    expect(extra.body.error.details).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'queueData.storageKey' })]));
    const text = await upload(admin.token, Buffer.from('just words\n'), 'text/plain', 'note.txt', admin.teamId);
    const notImage = await post(admin, { fileSimplyId: text });
    expect(notImage.status).toBe(400);
    expect(notImage.body.error.details[0]).toMatchObject({ field: 'queueData.fileSimplyId', message: expect.stringMatching(/not an image/) });
    const image = await upload(admin.token, await png(50, 50), 'image/png', 'mine.png', admin.teamId);
    const otherTeam = await post(adminOf(teams[1]), { fileSimplyId: image });
    expect(otherTeam.status).toBe(404);
    expect(otherTeam.body.error.code).toBe('NOT_FOUND');
  });

  it('regenerating needs media-library edit (403 for a member without it); API keys get IDP_REQUIRED', async () => {
    const admin = adminOf(teams[0]);
    const image = await upload(admin.token, await png(60, 40), 'image/png', 'perm.png', admin.teamId);
    const uploadTask = await variantTaskOf(image);
    const member = await addMember(server, teams[0]);
    const denied = await server.request('POST', '/v1/background-tasks', {
      token: member.token,
      teamId: admin.teamId,
      body: { enumBackgroundTaskTypeId: 'IMAGE_VARIANT_GENERATION', queueData: { fileSimplyId: image } },
    });
    expect(denied.status, denied.text).toBe(403);
    const key = await server.request('POST', '/v1/background-tasks', { token: teams[0].apiKey, body: { enumBackgroundTaskTypeId: 'IMAGE_VARIANT_GENERATION', queueData: { fileSimplyId: image } } });
    expect(key.status).toBe(403);
    expect(key.body.error.code).toBe('IDP_REQUIRED');
    // nothing was queued by the refusals: the upload's own task is the file's only one
    const tasks = await server.app.services.prisma.backgroundTask.findMany({ where: { taskType: 'IMAGE_VARIANT_GENERATION', queueData: { path: ['fileSimplyId'], equals: image } } });
    expect(tasks.map((t) => t.simplyId)).toEqual([uploadTask.simplyId]);
  });
});
