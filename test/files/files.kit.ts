// The media library in the route-table suites (test/support/area-kit.ts): the races of its write
// routes, the bodies of its id routes, how the file list is read, and a folder, a label and an
// image in the route world.
//
// Races on the media library: folders, files, the bulk routes and the upload flow. The flow's
// races wait for the server's worker: promotion is where one replacement winning (rule 3) and the
// storage limit (rule 7) bind, so those races complete many uploads at once.
import { png } from '../support/file-samples.ts';
import { createIntent, finalStatus, postToSignedUrl, sha256Base64, uploadFile, type IntentOptions, type UploadIntent } from '../support/file-uploads.ts';
import { until } from '../support/until.ts';
import { freshFile, freshFolder, unique } from '../concurrency/fresh-resources.ts';
import { distinct, expectOneDeletion, expectOneOf, expectSame, expectSuccesses } from '../concurrency/race-checks.ts';
import { N, succeeded, type Exchange, type RaceKit, type RaceTable, type Sent } from '../concurrency/race-kit.ts';
import { NO_BODY, fresh, ok, type AreaTestKit } from '../support/area-kit.ts';
import type { TeamFixture } from '../support/fixtures.ts';
import type { TestServer } from '../support/server.ts';

const FOLDERS = '/v1/files/folders';
const folderPath = (id: string) => `${FOLDERS}/${id}`;
const filePath = (id: string) => `/v1/files/${id}`;
const completePath = (id: string) => `/v1/file-uploads/${id}/complete`;

const textBytes = () => Buffer.from(`${unique('contents')}\n`);
const intentBody = (bytes: Buffer, extra: Record<string, unknown> = {}) => ({
  filename: `${unique('file')}.txt`,
  contentType: 'text/plain',
  fileSizeBytes: bytes.length,
  checksumSha256: sha256Base64(bytes),
  ...extra,
});

/** every file of the team, soft-deleted ones too (the list pages by page and pageSize) */
async function allFiles(kit: RaceKit): Promise<any[]> {
  const files: any[] = [];
  for (let page = 1; ; page++) {
    const response = await kit.adminResponse('GET', `/v1/files?page=${page}&pageSize=100&includeDeleted=true`);
    if (response.status !== 200) throw new Error(`list files: ${response.status} ${response.text.slice(0, 300)}`);
    files.push(...response.body.data);
    if (!response.body.meta.pagination.hasMore) return files;
  }
}

/** the folders directly in `parent` (absent: at the root) */
async function foldersIn(kit: RaceKit, parent?: string): Promise<{ fileFolderSimplyId: string; name: string; parentFileFolderSimplyId: string | null }[]> {
  return kit.admin('GET', parent ? `${FOLDERS}?parentFileFolderSimplyId=${parent}` : FOLDERS);
}

const storageUsage = async (kit: RaceKit) => {
  const usage = await kit.admin('GET', '/v1/files/storage-usage');
  return { usedBytes: Number(usage.usedBytes), fileCount: usage.fileCount, deletedFileCount: usage.deletedFileCount };
};

/** an intent of the racing credential (only it may complete or read it), with its bytes posted */
async function postedUpload(kit: RaceKit, bytes: Buffer, options: IntentOptions = {}): Promise<string> {
  const created = await createIntent(kit.server, kit.caller.token!, bytes, { teamId: kit.caller.teamId, ...options });
  if (created.status !== 201) throw new Error(`set-up intent: ${created.status} ${created.text.slice(0, 300)}`);
  const intent = created.body.data as UploadIntent;
  const posted = await postToSignedUrl(kit.server, intent, bytes, { partType: options.contentType ?? 'text/plain' });
  if (posted.status >= 300) throw new Error(`set-up post: ${posted.status} ${posted.text.slice(0, 300)}`);
  return intent.fileUploadSimplyId;
}

/** the upload's final status, read as the racing credential */
const settled = (kit: RaceKit, id: string) => finalStatus(kit.server, kit.caller.token!, id, 30_000, kit.caller.teamId);

async function uploadStatus(kit: RaceKit, id: string): Promise<string> {
  const response = await kit.server.request('GET', `/v1/file-uploads/${id}`, { token: kit.caller.token, teamId: kit.caller.teamId });
  if (response.status !== 200) throw new Error(`upload ${id}: ${response.status} ${response.text.slice(0, 300)}`);
  return response.body.data.status;
}

async function createLabel(kit: RaceKit): Promise<string> {
  const created = await kit.server.graphql('mutation($input: CreateTeamLabelInput!) { createTeamLabel(input: $input) { id } }', { input: { name: unique('label') } }, { token: kit.team.apiKey });
  if (!created.data) throw new Error(`set-up label: ${JSON.stringify(created.errors)}`);
  return (created.data as { createTeamLabel: { id: string } }).createTeamLabel.id;
}

/** `first` and `second` requests, alternating, N in all */
const alternating = (first: Sent, second: Sent): Sent[] => Array.from({ length: N }, (_, i) => (i % 2 ? second : first));

/** how many racers' per-file results report `fileSimplyId` deleted */
const deletedBy = (exchanges: Exchange[], fileSimplyId: string) =>
  succeeded(exchanges).filter((x) => x.response.body.data.some((r: { fileSimplyId: string; deleted: boolean }) => r.fileSimplyId === fileSimplyId && r.deleted)).length;

const fileRaces: RaceTable = {
  'POST /v1/files/folders': [
    {
      what: 'N folders with one name at once (names need not be unique)',
      async run(kit) {
        const name = unique('folder');
        const xs = await kit.race({ method: 'POST', path: FOLDERS, body: { name } });
        kit.expectAnswers(xs, ['201']);
        expectSame(kit, 'root folders with the name', (await foldersIn(kit)).filter((f) => f.name === name).length, succeeded(xs).length, xs);
      },
    },
    {
      what: 'folders created in a parent while it is deleted',
      async run(kit) {
        const parent = await freshFolder(kit);
        const creates: Sent[] = Array.from({ length: N - 1 }, () => ({ method: 'POST', path: FOLDERS, body: { name: unique('child'), parentFileFolderSimplyId: parent } }));
        const xs = await kit.race([{ method: 'DELETE', path: folderPath(parent) }, ...creates]);
        kit.expectAnswers(xs, ['200', '201', '404 NOT_FOUND', '409 FOLDER_NOT_EMPTY']);
        const deleted = xs[0]!.response.status === 200;
        const created = succeeded(xs.slice(1)).length;
        const parentLeft = (await foldersIn(kit)).some((f) => f.fileFolderSimplyId === parent);
        if (deleted === parentLeft) kit.problem(`the delete answered ${xs[0]!.response.status}, yet the parent is ${parentLeft ? 'still there' : 'gone'}`, xs);
        if (deleted && created > 0) kit.problem(`the parent was deleted while ${created} folders were created in it`, xs);
        if (parentLeft) expectSame(kit, 'folders in the parent', (await foldersIn(kit, parent)).length, created, xs);
      },
    },
  ],
  'PATCH /v1/files/folders/{fileFolderSimplyId}': [
    {
      what: 'N different names',
      async run(kit) {
        const id = await freshFolder(kit);
        const bodies = Array.from({ length: N }, () => ({ name: unique('renamed') }));
        const xs = await kit.race(bodies.map((body) => ({ method: 'PATCH', path: folderPath(id), body })));
        kit.expectAnswers(xs, ['200']);
        const folder = (await foldersIn(kit)).find((f) => f.fileFolderSimplyId === id);
        expectOneOf(kit, 'the name', { name: folder?.name }, bodies, xs);
      },
    },
    {
      what: 'two folders moved into each other at once (N/2 each way)',
      async run(kit) {
        const [a, b] = await Promise.all([freshFolder(kit), freshFolder(kit)]);
        const xs = await kit.race(
          alternating({ method: 'PATCH', path: folderPath(a!), body: { parentFileFolderSimplyId: b } }, { method: 'PATCH', path: folderPath(b!), body: { parentFileFolderSimplyId: a } }),
        );
        kit.expectAnswers(xs, ['200', '400 VALIDATION_ERROR']);
        const atRoot = (await foldersIn(kit)).map((f) => f.fileFolderSimplyId);
        // with only these two folders, one of them must stay at the root: otherwise each is the other's parent
        if (!atRoot.includes(a!) && !atRoot.includes(b!)) {
          const [inA, inB] = await Promise.all([foldersIn(kit, a), foldersIn(kit, b)]);
          kit.problem(`a cycle: ${a} holds ${JSON.stringify(inA.map((f) => f.fileFolderSimplyId))}, ${b} holds ${JSON.stringify(inB.map((f) => f.fileFolderSimplyId))}, neither is at the root`, xs);
        }
      },
    },
  ],
  'DELETE /v1/files/folders/{fileFolderSimplyId}': [
    {
      what: 'N deletes of one empty folder',
      async run(kit) {
        const id = await freshFolder(kit);
        const xs = await kit.race({ method: 'DELETE', path: folderPath(id) });
        kit.expectAnswers(xs, ['200', '404 NOT_FOUND']);
        await expectOneDeletion(kit, xs, { method: 'DELETE', path: folderPath(id) });
        if ((await foldersIn(kit)).some((f) => f.fileFolderSimplyId === id)) kit.problem('the folder is still listed after the deletes', xs);
      },
    },
    {
      what: 'a folder deleted while files move into it',
      async run(kit) {
        const folder = await freshFolder(kit);
        const files = await Promise.all([freshFile(kit), freshFile(kit), freshFile(kit)]);
        const moves: Sent[] = Array.from({ length: N - 1 }, (_, i) => ({ method: 'PUT', path: `${filePath(files[i % files.length]!)}/folder`, body: { fileFolderSimplyId: folder } }));
        const xs = await kit.race([{ method: 'DELETE', path: folderPath(folder) }, ...moves]);
        kit.expectAnswers(xs, ['200', '404 NOT_FOUND', '409 FOLDER_NOT_EMPTY']);
        const deleted = xs[0]!.response.status === 200;
        const moved = new Set(xs.slice(1).filter((x) => x.response.status === 200).map((x) => x.sent.path));
        if (deleted && moved.size > 0) kit.problem(`the folder was deleted while ${moved.size} files moved into it`, xs);
        const inFolder = (await allFiles(kit)).filter((f) => f.fileFolderSimplyId === folder).length;
        expectSame(kit, 'files in the folder', inFolder, deleted ? 0 : moved.size, xs);
        const folderLeft = (await foldersIn(kit)).some((f) => f.fileFolderSimplyId === folder);
        if (deleted === folderLeft) kit.problem(`the delete answered ${xs[0]!.response.status}, yet the folder is ${folderLeft ? 'still there' : 'gone'}`, xs);
      },
    },
  ],
  'POST /v1/files/download-urls': [
    {
      what: 'N identical requests for two files',
      async run(kit) {
        const files = await Promise.all([freshFile(kit), freshFile(kit)]);
        const xs = await kit.race({ method: 'POST', path: '/v1/files/download-urls', body: { fileSimplyIds: files } });
        kit.expectAnswers(xs, ['200']);
        for (const x of succeeded(xs)) {
          const results: { fileSimplyId: string; url: string | null; error: unknown }[] = x.response.body.data;
          const complete = files.every((id) => results.some((r) => r.fileSimplyId === id && r.url && !r.error));
          if (!complete) kit.problem('an answer lacks a URL for one of the files', [x]);
        }
      },
    },
  ],
  'POST /v1/files/bulk-delete': [
    {
      what: 'N soft bulk deletes of the same three files',
      async run(kit) {
        const files = await Promise.all([freshFile(kit), freshFile(kit), freshFile(kit)]);
        const xs = await kit.race({ method: 'POST', path: '/v1/files/bulk-delete', body: { fileSimplyIds: files } });
        kit.expectAnswers(xs, ['200']);
        for (const id of files) expectSame(kit, `racers that deleted ${id}`, deletedBy(xs, id), 1, xs);
        const left = (await allFiles(kit)).filter((f) => files.includes(f.fileSimplyId));
        expectSame(kit, 'soft-deleted files', left.filter((f) => f.isDeleted).length, files.length, xs);
      },
    },
    {
      what: 'N forced bulk deletes of the same three files',
      async run(kit) {
        const files = await Promise.all([freshFile(kit), freshFile(kit), freshFile(kit)]);
        const xs = await kit.race({ method: 'POST', path: '/v1/files/bulk-delete', body: { fileSimplyIds: files, force: true } });
        kit.expectAnswers(xs, ['200']);
        for (const id of files) expectSame(kit, `racers that destroyed ${id}`, deletedBy(xs, id), 1, xs);
        expectSame(kit, 'files left', (await allFiles(kit)).length, 0, xs);
        expectSame(kit, 'storage usage', await storageUsage(kit), { usedBytes: 0, fileCount: 0, deletedFileCount: 0 }, xs);
      },
    },
  ],
  'POST /v1/files/batch': [
    {
      what: 'N batches of two intents at once',
      async run(kit) {
        const xs = await kit.race({ method: 'POST', path: '/v1/files/batch', body: { files: [intentBody(textBytes()), intentBody(textBytes())] } });
        kit.expectAnswers(xs, ['200']);
        const items: { upload: { fileUploadSimplyId: string } | null; error: unknown }[] = succeeded(xs).flatMap((x) => x.response.body.data);
        if (items.some((item) => !item.upload || item.error)) kit.problem('an item of a batch was refused', xs);
        const ids = items.map((item) => item.upload?.fileUploadSimplyId);
        if (!distinct(ids)) kit.problem('two intents got the same id', xs);
        for (const id of ids.slice(0, 3)) if (id) expectSame(kit, `status of ${id}`, await uploadStatus(kit, id), 'CREATED', xs);
      },
    },
  ],
  'POST /v1/files/temp-cleanup': [
    {
      what: 'N clean-ups of the same three open intents',
      async run(kit) {
        const ids: string[] = [];
        for (let i = 0; i < 3; i++) {
          const bytes = textBytes();
          const created = await createIntent(kit.server, kit.caller.token!, bytes, { teamId: kit.caller.teamId });
          if (created.status !== 201) throw new Error(`set-up intent: ${created.status} ${created.text.slice(0, 300)}`);
          ids.push(created.body.data.fileUploadSimplyId);
        }
        const xs = await kit.race({ method: 'POST', path: '/v1/files/temp-cleanup', body: { fileUploadSimplyIds: ids } });
        kit.expectAnswers(xs, ['200']);
        const expired = succeeded(xs).reduce((sum, x) => sum + x.response.body.data.expired, 0);
        expectSame(kit, 'intents the racers report expired', expired, ids.length, xs);
        for (const id of ids) expectSame(kit, `status of ${id}`, await uploadStatus(kit, id), 'EXPIRED', xs);
      },
    },
    {
      what: 'clean-ups racing completes of one upload (N/2 each)',
      async run(kit) {
        const bytes = textBytes();
        const id = await postedUpload(kit, bytes);
        const xs = await kit.race(alternating({ method: 'POST', path: completePath(id) }, { method: 'POST', path: '/v1/files/temp-cleanup', body: { fileUploadSimplyIds: [id] } }));
        kit.expectAnswers(xs, ['200', '202']);
        const expired = xs.filter((x) => x.sent.path.endsWith('temp-cleanup') && x.response.status === 200).reduce((sum, x) => sum + x.response.body.data.expired, 0);
        const final = await settled(kit, id);
        const files = await allFiles(kit);
        if (expired > 1) kit.problem(`${expired} clean-ups expired the one intent`, xs);
        if (expired === 1) {
          expectSame(kit, 'status after a clean-up won', final.status, 'EXPIRED', xs);
          expectSame(kit, 'files after a clean-up won', files.length, 0, xs);
        } else {
          expectSame(kit, 'status after a complete won', final.status, 'COMPLETED', xs);
          expectSame(kit, 'files after a complete won', files.map((f) => f.checksumSha256), [sha256Base64(bytes)], xs);
        }
      },
    },
  ],
  'POST /v1/files/{fileSimplyId}/variants/regenerate': [
    {
      what: 'N regenerations of one image',
      // about the worker's promotions and renders, not the credential: one kind is enough
      callers: ['API key'],
      async run(kit) {
        const id = await freshFile(kit, await png(), { contentType: 'image/png', filename: 'race.png' });
        const variants = async (): Promise<{ id: string; variantType: string; format: string }[]> => kit.admin('GET', `${filePath(id)}/variants`);
        const before = await until(`variants of ${id}`, async () => ((await variants()).length > 0 ? variants() : null), 20_000, 50);
        const xs = await kit.race({ method: 'POST', path: `${filePath(id)}/variants/regenerate` });
        kit.expectAnswers(xs, ['202']);
        // rendered anew: none of the first set's ids is left
        const after = await until(`new variants of ${id}`, async () => {
          const now = await variants();
          return now.length > 0 && now.every((v) => !before.some((b) => b.id === v.id)) ? now : null;
        }, 20_000, 50);
        const kinds = (set: { variantType: string; format: string }[]) => set.map((v) => `${v.variantType}/${v.format}`).sort();
        expectSame(kit, 'variants after the regenerations', kinds(after), kinds(before), xs);
      },
    },
  ],
  'PATCH /v1/files/{fileSimplyId}': [
    {
      what: 'N different alt texts',
      async run(kit) {
        const id = await freshFile(kit);
        const bodies = Array.from({ length: N }, () => ({ altText: unique('alt') }));
        const xs = await kit.race(bodies.map((body) => ({ method: 'PATCH', path: filePath(id), body })));
        kit.expectAnswers(xs, ['200']);
        const file = await kit.admin('GET', filePath(id));
        expectOneOf(kit, 'the alt text', { altText: file.altText }, bodies, xs);
      },
    },
    {
      what: 'N different label sets',
      async run(kit) {
        const [id, ...labels] = await Promise.all([freshFile(kit), createLabel(kit), createLabel(kit), createLabel(kit), createLabel(kit)]);
        const sets = Array.from({ length: N }, (_, i) => [labels[i % 4]!, labels[(i + 1 + Math.floor(i / 4)) % 4]!].sort());
        const xs = await kit.race(sets.map((labelSimplyIds) => ({ method: 'PATCH', path: filePath(id!), body: { labelSimplyIds } })));
        kit.expectAnswers(xs, ['200']);
        const file = await kit.admin('GET', filePath(id!));
        expectOneOf(kit, 'the labels', [...file.labelSimplyIds].sort(), sets, xs);
      },
    },
    {
      what: 'changes while the file is destroyed',
      async run(kit) {
        const [id, label] = await Promise.all([freshFile(kit), createLabel(kit)]);
        const patches: Sent[] = Array.from({ length: N - 1 }, () => ({ method: 'PATCH', path: filePath(id), body: { altText: unique('alt'), labelSimplyIds: [label] } }));
        const xs = await kit.race([{ method: 'DELETE', path: filePath(id), body: { force: true } }, ...patches]);
        kit.expectAnswers(xs, ['200', '404 NOT_FOUND']);
        expectSame(kit, 'the destroying delete', xs[0]!.response.status, 200, xs);
        expectSame(kit, 'GET after the destroy: status', (await kit.adminResponse('GET', filePath(id))).status, 404, xs);
      },
    },
  ],
  'PUT /v1/files/{fileSimplyId}/folder': [
    {
      what: 'N moves to different folders',
      async run(kit) {
        const [id, ...folders] = await Promise.all([freshFile(kit), ...Array.from({ length: N / 2 }, () => freshFolder(kit))]);
        const bodies = Array.from({ length: N }, (_, i) => ({ fileFolderSimplyId: i === N - 1 ? null : folders[i % folders.length]! }));
        const xs = await kit.race(bodies.map((body) => ({ method: 'PUT', path: `${filePath(id!)}/folder`, body })));
        kit.expectAnswers(xs, ['200']);
        const file = await kit.admin('GET', filePath(id!));
        expectOneOf(kit, 'the folder', { fileFolderSimplyId: file.fileFolderSimplyId }, bodies, xs);
      },
    },
  ],
  'DELETE /v1/files/{fileSimplyId}': [
    {
      what: 'N soft deletes of one file',
      async run(kit) {
        const id = await freshFile(kit);
        const xs = await kit.race({ method: 'DELETE', path: filePath(id) });
        kit.expectAnswers(xs, ['200', '404 NOT_FOUND']);
        await expectOneDeletion(kit, xs, { method: 'DELETE', path: filePath(id) });
        expectSame(kit, 'isDeleted', (await kit.admin('GET', `${filePath(id)}?includeDeleted=true`)).isDeleted, true, xs);
      },
    },
    {
      what: 'N forced deletes of one file',
      async run(kit) {
        const id = await freshFile(kit);
        const xs = await kit.race({ method: 'DELETE', path: filePath(id), body: { force: true } });
        kit.expectAnswers(xs, ['200', '404 NOT_FOUND']);
        await expectOneDeletion(kit, xs, { method: 'DELETE', path: filePath(id), body: { force: true } }, filePath(id));
        expectSame(kit, 'storage usage', await storageUsage(kit), { usedBytes: 0, fileCount: 0, deletedFileCount: 0 }, xs);
      },
    },
    {
      what: 'soft and forced deletes of one file at once (N/2 each)',
      async run(kit) {
        const id = await freshFile(kit);
        const xs = await kit.race(alternating({ method: 'DELETE', path: filePath(id) }, { method: 'DELETE', path: filePath(id), body: { force: true } }));
        kit.expectAnswers(xs, ['200', '404 NOT_FOUND']);
        expectSuccesses(kit, xs.filter((x) => x.sent.body), 1, 'the file is destroyed once');
        expectSame(kit, 'GET after the deletes: status', (await kit.adminResponse('GET', filePath(id))).status, 404, xs);
      },
    },
  ],
  'POST /v1/file-uploads': [
    {
      what: 'N identical intents',
      async run(kit) {
        const xs = await kit.race({ method: 'POST', path: '/v1/file-uploads', body: intentBody(textBytes()) });
        kit.expectAnswers(xs, ['201']);
        const ids = succeeded(xs).map((x) => x.response.body.data.fileUploadSimplyId);
        if (!distinct(ids)) kit.problem('two intents got the same id', xs);
        if (!distinct(succeeded(xs).map((x) => x.response.body.data.upload.url + JSON.stringify(x.response.body.data.upload.fields)))) kit.problem('two intents got the same signed post', xs);
      },
    },
  ],
  'POST /v1/file-uploads/{fileUploadSimplyId}/complete': [
    {
      what: 'N completes of one upload',
      async run(kit) {
        const bytes = textBytes();
        const id = await postedUpload(kit, bytes);
        const xs = await kit.race({ method: 'POST', path: completePath(id) });
        kit.expectAnswers(xs, ['200', '202']);
        const final = await settled(kit, id);
        expectSame(kit, 'final status', final.status, 'COMPLETED', xs);
        const files = await allFiles(kit);
        expectSame(kit, 'files made', files.map((f) => [f.fileSimplyId, f.checksumSha256]), [[final.fileSimplyId, sha256Base64(bytes)]], xs);
      },
    },
    {
      what: 'N replacements of one file completed at once',
      // about the worker's promotions and renders, not the credential: one kind is enough
      callers: ['API key'],
      async run(kit) {
        const file = await freshFile(kit);
        const replacements = Array.from({ length: N }, () => textBytes());
        const ids = await Promise.all(replacements.map((bytes) => postedUpload(kit, bytes, { isNewVersionOfFileSimplyId: file })));
        const xs = await kit.race(ids.map((id) => ({ method: 'POST', path: completePath(id) })));
        kit.expectAnswers(xs, ['200', '202']);
        const finals = await Promise.all(ids.map((id) => settled(kit, id)));
        const outcomes = finals.map((f) => (f.status === 'COMPLETED' ? 'COMPLETED' : `${f.status} ${f.rejectionReason}`));
        expectSame(kit, 'replacements that won', outcomes.filter((o) => o === 'COMPLETED').length, 1, xs);
        const others = outcomes.filter((o) => o !== 'COMPLETED' && o !== 'REJECTED VERSION_CONFLICT');
        if (others.length) kit.problem(`replacements ended otherwise than COMPLETED or REJECTED VERSION_CONFLICT: ${others.join(', ')}`, xs);
        const versions: { versionNumber: number; checksumSha256: string }[] = await kit.admin('GET', `${filePath(file)}/versions`);
        expectSame(kit, 'versions', versions.map((v) => v.versionNumber), [2, 1], xs);
        const winner = finals.findIndex((f) => f.status === 'COMPLETED');
        if (winner >= 0) expectSame(kit, "version 2's checksum", versions[0]?.checksumSha256, sha256Base64(replacements[winner]!), xs);
      },
    },
    {
      what: 'replacements completed while the file is destroyed',
      callers: ['API key'],
      async run(kit) {
        const file = await freshFile(kit);
        const ids = await Promise.all(Array.from({ length: N - 1 }, () => postedUpload(kit, textBytes(), { isNewVersionOfFileSimplyId: file })));
        const xs = await kit.race([{ method: 'DELETE', path: filePath(file), body: { force: true } }, ...ids.map((id) => ({ method: 'POST', path: completePath(id) }))]);
        kit.expectAnswers(xs, ['200', '202']);
        const finals = await Promise.all(ids.map((id) => settled(kit, id)));
        const odd = finals.filter((f) => f.status !== 'COMPLETED' && !['VERSION_CONFLICT', 'ACCESS_DENIED'].includes(f.rejectionReason));
        if (odd.length) kit.problem(`replacements ended ${odd.map((f) => `${f.status} ${f.rejectionReason}`).join(', ')}`, xs);
        expectSame(kit, 'GET after the destroy: status', (await kit.adminResponse('GET', `${filePath(file)}?includeDeleted=true`)).status, 404, xs);
        // no version of a destroyed file may be left counting against the limit
        expectSame(kit, 'storage usage', await storageUsage(kit), { usedBytes: 0, fileCount: 0, deletedFileCount: 0 }, xs);
      },
    },
    {
      what: 'N uploads completed at once by a team with room for three',
      // about the worker's promotions and renders, not the credential: one kind is enough
      callers: ['API key'],
      async run(kit) {
        const uploads = Array.from({ length: N }, () => textBytes());
        const size = uploads[0]!.length;
        // set-up: the team's own limit (a system administrator's mutation), written directly
        await kit.server.app.services.prisma.teamStorageQuota.create({ data: { teamId: kit.team.teamId, quotaBytes: BigInt(3 * size) } });
        const ids = await Promise.all(uploads.map((bytes) => postedUpload(kit, bytes)));
        const xs = await kit.race(ids.map((id) => ({ method: 'POST', path: completePath(id) })));
        kit.expectAnswers(xs, ['200', '202']);
        const finals = await Promise.all(ids.map((id) => settled(kit, id)));
        const outcomes = finals.map((f) => (f.status === 'COMPLETED' ? 'COMPLETED' : `${f.status} ${f.rejectionReason}`)).sort();
        expectSame(kit, 'outcomes', outcomes, [...Array(3).fill('COMPLETED'), ...Array(N - 3).fill('REJECTED STORAGE_LIMIT_EXCEEDED')], xs);
        expectSame(kit, 'storage usage', await storageUsage(kit), { usedBytes: 3 * size, fileCount: 3, deletedFileCount: 0 }, xs);
      },
    },
  ],
};

/**
 * A folder, a label, and an image in the folder carrying the label, uploaded through the real flow
 * (intent, signed post, complete, promotion by the server's worker) with the team's API key: its
 * upload is the world's intent. Ready once its variants are: rendered later, they would change the
 * team's reads while the suites compare them.
 */
async function buildMediaLibrary(server: TestServer, team: TeamFixture, name: (what: string) => string): Promise<Record<string, string>> {
  if (!server.app.services.jobs.isWorking) {
    throw new Error('route world: its file is promoted by a job, and this server runs none; start it with routeWorldServer() (test/support/route-world.ts)');
  }
  const token = team.apiKey;
  const folder = await ok(await server.request('POST', '/v1/files/folders', { token, body: { name: name('Folder') } }), 'create folder');
  const label = await server.graphql('mutation($input: CreateTeamLabelInput!) { createTeamLabel(input: $input) { id } }', { input: { name: name('Label') } }, { token });
  if (!label.data) throw new Error(`route world: create label answered ${JSON.stringify(label.errors)}`);
  const upload = await uploadFile(server, token, await png(), { filename: name('Image.png'), contentType: 'image/png', fileFolderSimplyId: folder.fileFolderSimplyId });
  if (upload.status !== 'COMPLETED') throw new Error(`route world: the image's upload ended ${upload.status} (${upload.rejectionReason}: ${upload.rejectionMessage})`);
  const labelId: string = (label.data as { createTeamLabel: { id: string } }).createTeamLabel.id;
  await ok(await server.request('PATCH', `/v1/files/${upload.fileSimplyId}`, { token, body: { altText: name('Alt text'), labelSimplyIds: [labelId] } }), 'label the image');
  await until(
    "the world image's variants",
    async () => ((await server.request('GET', `/v1/files/${upload.fileSimplyId}/variants`, { token })).body?.data ?? []).length > 0,
    20_000,
  );
  return {
    fileFolderSimplyId: folder.fileFolderSimplyId,
    labelSimplyId: labelId,
    fileSimplyId: upload.fileSimplyId,
    fileUploadSimplyId: upload.fileUploadSimplyId,
    versionNumber: '1',
  };
}

export const kit: AreaTestKit = {
  races: fileRaces,
  idRouteBodies: {
    'PATCH /v1/files/folders/{fileFolderSimplyId}': () => ({ name: fresh('renamed folder') }),
    'PATCH /v1/files/{fileSimplyId}': () => ({ altText: fresh('alt text') }),
    'PUT /v1/files/{fileSimplyId}/folder': () => ({ fileFolderSimplyId: null }),
    // a soft delete; { force: true } is the same lookup
    'DELETE /v1/files/{fileSimplyId}': () => NO_BODY,
  },
  readQueries: {
    'GET /v1/files': () => 'page=1&pageSize=100&includeDeleted=true',
  },
  world: async ({ server, team, name }) => ({ ids: await buildMediaLibrary(server, team, name), names: ['Folder', 'Label', 'Image.png', 'Alt text'] }),
  // the media library waits on a promotion job: built alongside the rest
  worldAlongside: true,
  // every file has a version 1
  notTeamIds: ['versionNumber'],
};
