// GraphQL face of uploads (Document 1 §3, §4.7 rules 1-8), the two compatibility operations and
// the `fileUploadStatus` subscription. REST: rest-adapter/routes/files.ts.
import type { FileUpload } from '../../generated/prisma/client.ts';
import { builder } from '../../app/builder.ts';
import { tier } from '../../app/auth/tiers.ts';
import { givenFields } from '../../app/graphql/input-fields.ts';
import type { RequestContext } from '../../app/context.ts';
import { batchCreateUploads, cleanUpTemporaryUploads, type BatchUploadResult } from './files-compat.service.ts';
import { completeFileUpload, createFileUpload, findOwnUpload, getFileUpload, uploadReference, type CreatedUpload } from './file-uploads.service.ts';
import { REJECTION_REASONS, UPLOAD_STATUSES } from './upload-outcomes.ts';

const StatusEnum = builder.enumType('FileUploadStatus', {
  description: 'CREATED (intent open) → PENDING (complete called; checks running) → COMPLETED | REJECTED | EXPIRED',
  values: UPLOAD_STATUSES,
});
const ReasonEnum = builder.enumType('FileUploadRejectionReason', { values: REJECTION_REASONS });

const TERMINAL = new Set(['COMPLETED', 'REJECTED', 'EXPIRED']);

export const FileUploadRef = builder.objectRef<FileUpload>('FileUpload').implement({
  description: 'The durable status of an upload; never its storage coordinates',
  fields: (t) => ({
    id: t.exposeString('simplyId'),
    fileUploadSimplyId: t.exposeString('simplyId'),
    status: t.field({ type: StatusEnum, resolve: (u) => u.status as never }),
    filename: t.exposeString('filename'),
    contentType: t.exposeString('contentType'),
    fileSizeBytes: t.float({ resolve: (u) => Number(u.fileSizeBytes) }),
    checksumSha256: t.exposeString('checksumSha256'),
    fileFolderSimplyId: t.string({ nullable: true, resolve: (u, _a, ctx) => uploadReference(ctx, 'folder', u.folderId) }),
    isNewVersionOfFileSimplyId: t.string({ nullable: true, resolve: (u, _a, ctx) => uploadReference(ctx, 'file', u.replacesFileId) }),
    expectedVersionNumber: t.exposeInt('expectedVersionNumber', { nullable: true, description: 'replacements: the version this upload replaces' }),
    rejectionReason: t.field({ type: ReasonEnum, nullable: true, resolve: (u) => u.rejectionReason as never }),
    rejectionMessage: t.exposeString('rejectionMessage', { nullable: true }),
    fileSimplyId: t.string({ nullable: true, description: 'COMPLETED: the file', resolve: (u, _a, ctx) => uploadReference(ctx, 'file', u.fileId) }),
    versionNumber: t.exposeInt('versionNumber', { nullable: true, description: 'COMPLETED: the version it became' }),
    expiresAt: t.field({ type: 'DateTime', description: 'when the signed post expires (ten minutes)', resolve: (u) => u.expiresAt }),
    createdAt: t.field({ type: 'DateTime', resolve: (u) => u.createdAt }),
    completedAt: t.field({ type: 'DateTime', nullable: true, description: 'when it reached its final status', resolve: (u) => u.finishedAt }),
  }),
});

const SignedPostRef = builder.objectRef<CreatedUpload['upload']>('FileUploadPost').implement({
  description: 'Post multipart/form-data to url: every field unchanged, then the file part',
  fields: (t) => ({
    url: t.exposeString('url'),
    fields: t.field({ type: 'JSON', description: 'name → value, sent as they are', resolve: (p) => p.fields }),
    expiresAt: t.field({ type: 'DateTime', resolve: (p) => p.expiresAt }),
    expiresIn: t.int({ description: 'seconds (600)', resolve: (p) => Math.max(0, Math.round((p.expiresAt.getTime() - Date.now()) / 1000)) }),
  }),
});

const CreatedUploadRef = builder.objectRef<CreatedUpload>('CreatedFileUpload').implement({
  fields: (t) => ({
    id: t.string({ resolve: (c) => c.row.simplyId }),
    fileUploadSimplyId: t.string({ resolve: (c) => c.row.simplyId }),
    status: t.field({ type: StatusEnum, resolve: (c) => c.row.status as never }),
    expiresAt: t.field({ type: 'DateTime', resolve: (c) => c.row.expiresAt }),
    upload: t.field({ type: SignedPostRef, resolve: (c) => c.upload }),
  }),
});

const BatchItemErrorRef = builder.objectRef<NonNullable<BatchUploadResult['error']>>('FileBatchItemError').implement({
  fields: (t) => ({
    code: t.exposeString('code'),
    message: t.exposeString('message'),
    details: t.field({ type: 'JSON', nullable: true, resolve: (e) => e.details ?? null }),
  }),
});

const BatchResultRef = builder.objectRef<BatchUploadResult>('FileBatchUploadResult').implement({
  fields: (t) => ({
    index: t.exposeInt('index'),
    upload: t.field({ type: CreatedUploadRef, nullable: true, resolve: (r) => r.created }),
    error: t.field({ type: BatchItemErrorRef, nullable: true, resolve: (r) => r.error }),
  }),
});

const CreateUploadInput = builder.inputType('CreateFileUploadInput', {
  fields: (t) => ({
    filename: t.string({ required: true }),
    contentType: t.string({ required: true, description: 'exact, allowlisted type' }),
    fileSizeBytes: t.float({ required: true, description: 'the exact size: 1 byte to 10 MiB (text-like) or 500 MiB' }),
    checksumSha256: t.string({ required: true, description: 'base64 SHA-256 of the bytes' }),
    fileFolderSimplyId: t.string(),
    isNewVersionOfFileSimplyId: t.string({ description: 'replace this file (keeps its id)' }),
  }),
});

const BatchUploadsInput = builder.inputType('FileBatchUploadsInput', {
  fields: (t) => ({ files: t.field({ type: ['JSON'], required: true, description: '1-25 upload intents (CreateFileUploadInput each)' }) }),
});

const CleanupResultRef = builder.objectRef<{ expired: number }>('FileTempCleanupResult').implement({
  fields: (t) => ({ expired: t.exposeInt('expired', { description: 'open intents ended EXPIRED' }) }),
});

builder.queryFields((t) => ({
  fileUpload: t.field({
    type: FileUploadRef,
    description: 'The status of an upload this credential created',
    authScopes: tier.standard,
    args: { fileUploadSimplyId: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => getFileUpload(ctx, args.fileUploadSimplyId),
  }),
}));

builder.mutationFields((t) => ({
  createFileUpload: t.field({
    type: CreatedUploadRef,
    description: 'An upload intent and its signed post (ten minutes); rule 4 decides who may',
    authScopes: tier.standard,
    args: { input: t.arg({ type: CreateUploadInput, required: true }) },
    resolve: (_root, args, ctx) => createFileUpload(ctx, givenFields(args.input)),
  }),
  completeFileUpload: t.field({
    type: FileUploadRef,
    description: 'Starts the checks (PENDING) or answers the final status; repeating it is harmless',
    authScopes: tier.standard,
    args: { fileUploadSimplyId: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => completeFileUpload(ctx, args.fileUploadSimplyId),
  }),
  batchCreateFileUploads: t.field({
    type: [BatchResultRef],
    description: 'Compatibility: several upload intents at once, each answered on its own; storage addresses are never accepted',
    authScopes: tier.standard,
    args: { input: t.arg({ type: BatchUploadsInput, required: true }) },
    resolve: (_root, args, ctx) => batchCreateUploads(ctx, args.input),
  }),
  cleanUpTemporaryFileUploads: t.field({
    type: CleanupResultRef,
    description: "Compatibility: ends this credential's open intents (all, or the listed ones) as EXPIRED and removes their objects",
    authScopes: tier.standard,
    args: { fileUploadSimplyIds: t.arg.stringList() },
    resolve: (_root, args, ctx) => cleanUpTemporaryUploads(ctx, args.fileUploadSimplyIds ? { fileUploadSimplyIds: args.fileUploadSimplyIds } : undefined),
  }),
}));

builder.subscriptionFields((t) => ({
  fileUploadStatus: t.field({
    type: FileUploadRef,
    description: 'The upload as it is now, then each status change, ending after a final status (only for the credential that created it)',
    authScopes: tier.standard,
    args: { fileUploadSimplyId: t.arg.string({ required: true }) },
    subscribe: (_root, args, ctx) => uploadStatusStream(ctx, args.fileUploadSimplyId),
    resolve: (upload) => upload,
  }),
}));

async function* uploadStatusStream(ctx: RequestContext, simplyId: string): AsyncGenerator<FileUpload> {
  let upload = await findOwnUpload(ctx, simplyId);
  // listen before reading again, so a change in between is not missed
  const events = ctx.services.events.pubsub.subscribe('fileUploadStatus', simplyId)[Symbol.asyncIterator]();
  try {
    upload = await findOwnUpload(ctx, simplyId);
    yield upload;
    while (!TERMINAL.has(upload.status)) {
      const next = await events.next();
      if (next.done) return;
      const now = await findOwnUpload(ctx, simplyId);
      if (now.status === upload.status) continue;
      upload = now;
      yield upload;
    }
  } finally {
    await events.return?.(undefined);
  }
}
