// /v1/team-schema/* → src/data/team-schema/team-schema.schema.ts
import { ValidationError, type ErrorDetail } from '../../src/app/errors.ts';
import { defineRoutes, intParam, pageVariables, respondPage, type RestRequest } from '../legacy-route.ts';

const CHANGE = `id dataCollectionSimplyId changedProperties before after`;
const ENTITY_DIFF = `{ added { ${CHANGE} } removed { ${CHANGE} } changed { ${CHANGE} } }`;

/** Integer query parameters that must all be present: every missing one is named. */
function requiredInts(req: RestRequest, names: string[]): Record<string, number> {
  const details: ErrorDetail[] = names.filter((n) => !req.query.get(n)).map((field) => ({ field, message: 'is required (a version number; 0 is the empty schema)' }));
  if (details.length > 0) throw new ValidationError(`${names.join(' and ')} are required`, details);
  return Object.fromEntries(names.map((n) => [n, intParam(req, n)!]));
}

export const teamSchemaRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/v1/team-schema/export',
    summary: 'The current team schema (collections with fields, views, wizards, automations) and its version number',
    operation: `query TeamSchemaExport { teamSchemaExport { version formatVersion collections views wizards automations } }`,
  },
  {
    method: 'GET',
    path: '/v1/team-schema/versions',
    summary: 'Schema version history, newest first: limit, offset; each { version, summary, actorKind, actorId, createdAt }',
    operation: `query TeamSchemaVersions($limit: Int, $offset: Int) {
      teamSchemaVersions(limit: $limit, offset: $offset) { nodes { version summary actorKind actorId createdAt } pagination { total limit offset hasMore } } }`,
    variables: pageVariables,
    respond: respondPage,
  },
  {
    method: 'GET',
    path: '/v1/team-schema/versions/compare',
    summary: 'What changed between two versions: from, to (required; 0 = the empty schema); added, removed, changed per collection, field and view',
    operation: `query CompareTeamSchemaVersions($from: Int!, $to: Int!) {
      compareTeamSchemaVersions(from: $from, to: $to) {
        from to hasChanges collections ${ENTITY_DIFF} fields ${ENTITY_DIFF} views ${ENTITY_DIFF} wizards ${ENTITY_DIFF} automations ${ENTITY_DIFF} } }`,
    variables: (req) => requiredInts(req, ['from', 'to']),
  },
  {
    method: 'GET',
    path: '/v1/team-schema/changed',
    summary: 'Whether the schema changed since a version (sinceVersion) or a time (since, ISO 8601); exactly one of them',
    operation: `query TeamSchemaChanged($sinceVersion: Int, $since: String) {
      teamSchemaChanged(sinceVersion: $sinceVersion, since: $since) { changed currentVersion changedAt versionsSince } }`,
    variables: (req) => ({ sinceVersion: intParam(req, 'sinceVersion'), since: req.query.get('since') }),
  },
]);
