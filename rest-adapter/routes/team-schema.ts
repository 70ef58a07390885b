// /v1/team-schema/* → src/modules/team-schema/team-schema.schema.ts (docs/api/team-schema.md)
import { z } from 'zod';
import { TEAM_SCHEMA_CHANGED, TEAM_SCHEMA_DIFF, TEAM_SCHEMA_EXPORT, TEAM_SCHEMA_VERSION } from '../../src/modules/team-schema/team-schema.fragments.ts';
import { operation } from '../../src/app/graphql/fragments.ts';
import { defineRoutes, route } from '../route.ts';
import { listPage } from '../route-shapes.ts';
import { queryInt } from '../schemas.ts';

/** A version number the route cannot do without; empty counts as missing. The range is the service's to check. */
const requiredVersion = () =>
  z.preprocess(
    (v) => (v === '' ? undefined : v),
    z
      .string({ error: (issue) => (issue.input === undefined ? 'is required (a version number; 0 is the empty schema)' : undefined) })
      .regex(/^-?\d+$/, 'must be an integer')
      .transform(Number),
  );

export const teamSchemaRoutes = defineRoutes([
  route({
    method: 'GET',
    path: '/v1/team-schema/export',
    summary: 'Export the team schema',
    description: 'The current team schema (collections with fields, views, wizards, automations) and its version number',
    operation: operation`query TeamSchemaExport { teamSchemaExport { ${TEAM_SCHEMA_EXPORT} } }`,
  }),
  listPage({
    path: '/v1/team-schema/versions',
    summary: 'List team schema versions',
    description: 'Schema version history, newest first: limit, offset; each { version, summary, actorKind, actorId, createdAt }',
    name: 'TeamSchemaVersions',
    select: TEAM_SCHEMA_VERSION,
  }),
  route({
    method: 'GET',
    path: '/v1/team-schema/versions/compare',
    summary: 'Compare team schema versions',
    description: 'What changed between two versions: from, to (required; 0 = the empty schema); added, removed, changed per collection, field and view',
    operation: operation`query CompareTeamSchemaVersions($from: Int!, $to: Int!) { compareTeamSchemaVersions(from: $from, to: $to) { ${TEAM_SCHEMA_DIFF} } }`,
    query: z.object({ from: requiredVersion().describe('version number, 0 or more'), to: requiredVersion().describe('version number, 0 or more') }),
    variables: ({ query }) => query,
  }),
  route({
    method: 'GET',
    path: '/v1/team-schema/changed',
    summary: 'Check for team schema changes',
    description: 'Whether the schema changed since a version (sinceVersion) or a time (since, ISO 8601); exactly one of them',
    operation: operation`query TeamSchemaChanged($sinceVersion: Int, $since: String) { teamSchemaChanged(sinceVersion: $sinceVersion, since: $since) { ${TEAM_SCHEMA_CHANGED} } }`,
    query: z.object({
      sinceVersion: queryInt().describe('a version number the client holds'),
      since: z.string().optional().describe('ISO 8601 date, or date-time with an offset'),
    }),
    variables: ({ query }) => query,
  }),
]);
