// GraphQL face of media-library folders, team labels and the operators' storage limit.
import type { TeamLabel } from '../../generated/prisma/client.ts';
import { builder } from '../../app/builder.ts';
import { tier } from '../../app/auth/tiers.ts';
import { givenFields } from '../../app/graphql/input-fields.ts';
import { createFolder, deleteFolder, listFolders, updateFolder, type FolderRow } from './file-folders.service.ts';
import { setTeamStorageQuota } from './files-compat.service.ts';
import { createTeamLabel, listTeamLabels } from './team-labels.service.ts';

const FolderRef = builder.objectRef<FolderRow>('FileFolder').implement({
  fields: (t) => ({
    id: t.exposeString('simplyId'),
    fileFolderSimplyId: t.exposeString('simplyId'),
    name: t.exposeString('name'),
    parentFileFolderSimplyId: t.string({ nullable: true, description: 'null: at the root', resolve: (f) => f.parent?.simplyId ?? null }),
    createdAt: t.field({ type: 'DateTime', resolve: (f) => f.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (f) => f.updatedAt }),
  }),
});

const LabelRef = builder.objectRef<TeamLabel>('TeamLabel').implement({
  fields: (t) => ({
    id: t.exposeString('simplyId'),
    labelSimplyId: t.exposeString('simplyId'),
    name: t.exposeString('name'),
    color: t.exposeString('color', { nullable: true }),
    createdAt: t.field({ type: 'DateTime', resolve: (l) => l.createdAt }),
  }),
});

const CreateFolderInput = builder.inputType('CreateFileFolderInput', {
  fields: (t) => ({ name: t.string({ required: true }), parentFileFolderSimplyId: t.string({ description: 'absent or null: at the root' }) }),
});
const UpdateFolderInput = builder.inputType('UpdateFileFolderInput', {
  fields: (t) => ({ name: t.string(), parentFileFolderSimplyId: t.string({ description: 'moves the folder; null: to the root' }) }),
});
const CreateLabelInput = builder.inputType('CreateTeamLabelInput', {
  fields: (t) => ({ name: t.string({ required: true }), color: t.string({ description: '#rrggbb' }) }),
});

builder.queryFields((t) => ({
  fileFolders: t.field({
    type: [FolderRef],
    description: 'The folders directly in a folder (absent: at the root), by name (TEAM_ADMIN_MEDIA_LIBRARY view)',
    authScopes: tier.standard,
    args: { parentFileFolderSimplyId: t.arg.string() },
    resolve: (_root, args, ctx) => listFolders(ctx, args.parentFileFolderSimplyId),
  }),
  teamLabels: t.field({ type: [LabelRef], description: "The team's labels (TEAM_ADMIN_MEDIA_LIBRARY view)", authScopes: tier.standard, resolve: (_r, _a, ctx) => listTeamLabels(ctx) }),
}));

builder.mutationFields((t) => ({
  createFileFolder: t.field({
    type: FolderRef,
    authScopes: tier.standard,
    args: { input: t.arg({ type: CreateFolderInput, required: true }) },
    resolve: (_root, args, ctx) => createFolder(ctx, givenFields(args.input, ['parentFileFolderSimplyId'])),
  }),
  updateFileFolder: t.field({
    type: FolderRef,
    description: 'Rename and/or move (TEAM_ADMIN_MEDIA_LIBRARY edit)',
    authScopes: tier.standard,
    args: { fileFolderSimplyId: t.arg.string({ required: true }), input: t.arg({ type: UpdateFolderInput, required: true }) },
    resolve: (_root, args, ctx) => updateFolder(ctx, args.fileFolderSimplyId, givenFields(args.input, ['parentFileFolderSimplyId'])),
  }),
  deleteFileFolder: t.boolean({
    description: 'Only an empty folder (no live files, no folders) (TEAM_ADMIN_MEDIA_LIBRARY edit)',
    authScopes: tier.standard,
    args: { fileFolderSimplyId: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => deleteFolder(ctx, args.fileFolderSimplyId),
  }),
  createTeamLabel: t.field({
    type: LabelRef,
    authScopes: tier.standard,
    args: { input: t.arg({ type: CreateLabelInput, required: true }) },
    resolve: (_root, args, ctx) => createTeamLabel(ctx, givenFields(args.input)),
  }),
  setTeamStorageQuota: t.boolean({
    description: "System administrators: a team's storage limit in bytes; null returns it to FILE_STORAGE_QUOTA_BYTES",
    authScopes: tier.systemAdmin,
    args: { teamSimplyId: t.arg.string({ required: true }), quotaBytes: t.arg.float() },
    resolve: (_root, args, ctx) => setTeamStorageQuota(ctx, args.teamSimplyId, args.quotaBytes ?? null),
  }),
}));
