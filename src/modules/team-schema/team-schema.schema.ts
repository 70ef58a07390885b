// GraphQL face of the team schema (Document 1 §4.3): export, version history, compare, changed.
// REST: rest-adapter/routes/team-schema.ts. Standard tier: team context, schema:read for scoped
// tokens; what each caller sees is narrowed in schema-versions.service.ts.
import { tier } from '../../app/auth/tiers.ts';
import { builder } from '../../app/builder.ts';
import { pageArgs, withArgs } from '../../app/graphql/args.ts';
import { pageType } from '../../app/graphql/page.ts';
import type { EntityChange, EntityDiff } from './schema-diff.ts';
import {
  compareVersions,
  currentExport,
  listVersions,
  schemaChangedSince,
  type SchemaChanged,
  type SchemaExport,
  type VersionComparison,
  type VersionItem,
} from './team-schema.service.ts';

const TeamSchemaExportRef = builder.objectRef<SchemaExport>('TeamSchemaExport').implement({
  description: 'The portable team schema: every reference is a simplyId (Document 1 §9 rule 3).',
  fields: (t) => ({
    version: t.exposeInt('version', { description: 'the current schema version; 0 before the first recorded change' }),
    formatVersion: t.exposeInt('formatVersion'),
    collections: t.field({ type: 'JSON', description: 'collections with their fields[]', resolve: (d) => d.collections }),
    views: t.field({ type: 'JSON', resolve: (d) => d.views }),
    wizards: t.field({ type: 'JSON', resolve: (d) => d.wizards }),
    automations: t.field({ type: 'JSON', resolve: (d) => d.automations }),
  }),
});

const TeamSchemaVersionRef = builder.objectRef<VersionItem>('TeamSchemaVersion').implement({
  fields: (t) => ({
    version: t.exposeInt('version'),
    summary: t.exposeString('summary', { description: 'what changed' }),
    actorKind: t.exposeString('actorKind', { description: 'credential kind of who made the change' }),
    actorId: t.exposeString('actorId', { nullable: true, description: 'API key simplyId, sess_ id or user simplyId' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const TeamSchemaVersionPageRef = pageType('TeamSchemaVersionPage', TeamSchemaVersionRef);

const TeamSchemaEntityChangeRef = builder.objectRef<EntityChange>('TeamSchemaEntityChange').implement({
  fields: (t) => ({
    id: t.exposeString('id', { description: 'simplyId of the collection, field or view' }),
    dataCollectionSimplyId: t.exposeString('dataCollectionSimplyId', { nullable: true, description: 'the owning collection' }),
    changedProperties: t.exposeStringList('changedProperties', { description: 'changed entries: the properties that differ' }),
    before: t.field({ type: 'JSON', nullable: true, resolve: (c) => c.before }),
    after: t.field({ type: 'JSON', nullable: true, resolve: (c) => c.after }),
  }),
});

const TeamSchemaEntityDiffRef = builder.objectRef<EntityDiff>('TeamSchemaEntityDiff').implement({
  fields: (t) => ({
    added: t.field({ type: [TeamSchemaEntityChangeRef], resolve: (d) => d.added }),
    removed: t.field({ type: [TeamSchemaEntityChangeRef], resolve: (d) => d.removed }),
    changed: t.field({ type: [TeamSchemaEntityChangeRef], resolve: (d) => d.changed }),
  }),
});

const TeamSchemaDiffRef = builder.objectRef<VersionComparison>('TeamSchemaDiff').implement({
  fields: (t) => ({
    from: t.exposeInt('from'),
    to: t.exposeInt('to'),
    hasChanges: t.exposeBoolean('hasChanges'),
    collections: t.field({ type: TeamSchemaEntityDiffRef, resolve: (d) => d.collections }),
    fields: t.field({ type: TeamSchemaEntityDiffRef, resolve: (d) => d.fields }),
    views: t.field({ type: TeamSchemaEntityDiffRef, resolve: (d) => d.views }),
    wizards: t.field({ type: TeamSchemaEntityDiffRef, resolve: (d) => d.wizards }),
    automations: t.field({ type: TeamSchemaEntityDiffRef, resolve: (d) => d.automations }),
  }),
});

const TeamSchemaChangedRef = builder.objectRef<SchemaChanged>('TeamSchemaChanged').implement({
  fields: (t) => ({
    changed: t.exposeBoolean('changed'),
    currentVersion: t.exposeInt('currentVersion'),
    changedAt: t.field({ type: 'DateTime', nullable: true, description: 'when the current version was recorded', resolve: (c) => c.changedAt }),
    versionsSince: t.exposeInt('versionsSince', { description: 'versions recorded after sinceVersion / since' }),
  }),
});

builder.queryFields((t) => ({
  teamSchemaExport: t.field({
    type: TeamSchemaExportRef,
    description: 'The current team schema (collections the caller can read, with their readable fields; views on them).',
    authScopes: tier.standardDataScoped,
    resolve: (_root, _args, ctx) => currentExport(ctx),
  }),
  teamSchemaVersions: t.field({
    type: TeamSchemaVersionPageRef,
    description: 'Schema version history, newest first.',
    authScopes: tier.standardDataScoped,
    args: pageArgs(t.arg),
    resolve: withArgs(listVersions),
  }),
  compareTeamSchemaVersions: t.field({
    type: TeamSchemaDiffRef,
    description: 'What changed from version `from` to version `to` (0 = the empty schema).',
    authScopes: tier.standardDataScoped,
    args: { from: t.arg.int({ required: true }), to: t.arg.int({ required: true }) },
    resolve: withArgs(compareVersions),
  }),
  teamSchemaChanged: t.field({
    type: TeamSchemaChangedRef,
    description: 'Whether the schema changed since a version (sinceVersion) or a time (since, ISO 8601); exactly one of them.',
    authScopes: tier.standardDataScoped,
    args: { sinceVersion: t.arg.int(), since: t.arg.string() },
    resolve: withArgs(schemaChangedSince),
  }),
}));
