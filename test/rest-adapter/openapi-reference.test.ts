// The OpenAPI document reads like a reference: every operation is named in a few words (the /docs
// sidebar shows the summary) with the details in its description, and the main request bodies
// carry an example that the route's own body schema accepts, so an example cannot drift from
// what the route validates.
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../rest-adapter/openapi.ts';
import type { RestRoute } from '../../rest-adapter/route.ts';
import { modules, routes } from '../../src/main/modules.ts';
import { schema } from '../../src/main/schema.ts';

const document = openApiDocument({ schema, modules, serverUrl: 'https://api.example.test' });
const key = (r: Pick<RestRoute, 'method' | 'path'>) => `${r.method} ${r.path}`;
const operationOf = (r: RestRoute) => document.paths[r.path]![r.method.toLowerCase()] as Record<string, any>;

/** The create and update bodies of each area's main resources, and the other bodies a caller meets first. */
const MUST_HAVE_EXAMPLES = [
  'POST /v1/auth/login',
  'POST /v1/auth/login/mfa',
  'POST /v1/auth/refresh',
  'POST /v1/api-keys',
  'PATCH /v1/api-keys/{apiKeySimplyId}',
  'POST /v1/session-tokens',
  'POST /v1/team-roles',
  'PUT /v1/team-roles/{teamRoleSimplyId}',
  'PATCH /v1/users/me',
  'POST /v1/users',
  'POST /v1/users/me/mobile-devices/current',
  'POST /v1/users/me/mfa/complete-setup',
  'POST /v1/data-collections',
  'PATCH /v1/data-collections/{dataCollectionSimplyId}',
  'POST /v1/data-collections/{dataCollectionSimplyId}/rename',
  'POST /v1/data-collections/{dataCollectionSimplyId}/fields',
  'PATCH /v1/data-collections/{dataCollectionSimplyId}/fields/{dataFieldSimplyId}',
  'POST /v1/data-records',
  'PATCH /v1/data-records/{dataRecordSimplyId}',
  'PUT /v1/data-records/{dataRecordSimplyId}',
  'POST /v1/data-records/search',
  'POST /v1/data-records/batch',
  'PATCH /v1/data-records/batch',
  'DELETE /v1/data-records/batch',
  'POST /v1/create-menu/data-records',
  'POST /v1/data-views',
  'POST /v1/data-wizards/{dataWizardSimplyId}/execute',
  'POST /v1/automations',
  'PUT /v1/automations/{automationSimplyId}',
  'POST /v1/automations/{automationSimplyId}/actions',
  'PUT /v1/automations/{automationSimplyId}/actions/{automationActionSimplyId}',
  'POST /v1/webhooks',
  'PUT /v1/webhooks/{webhookSimplyId}',
  'POST /v1/content-templates',
  'PATCH /v1/content-templates/{contentTemplateSimplyId}',
  'POST /v1/signing-requests',
  'POST /v1/signing/sign',
  'PUT /v1/signing-settings',
  'POST /v1/outgoing-messages',
  'PUT /v1/outgoing-messages/{outgoingMessageSimplyId}',
  'PUT /v1/outgoing-messages/{outgoingMessageSimplyId}/status',
  'POST /v1/outgoing-messages/{outgoingMessageSimplyId}/test-send',
  'PUT /v1/message-settings',
  'PUT /v1/notifications/preferences',
  'POST /v1/notifications/device-token',
  'POST /v1/message-suppressions',
  'POST /v1/constituent-auth/initiate',
  'POST /v1/constituent-auth/verify',
  'POST /v1/background-tasks',
  'PUT /v1/background-tasks/output-defaults',
];

describe('operation names', () => {
  it('are a few words: at most 40 characters, no colon, no trailing period', () => {
    const wordy = routes
      .map((r) => ({ route: key(r), summary: operationOf(r).summary as string }))
      .filter(({ summary }) => summary.length > 40 || summary.includes(':') || /[.:]$/.test(summary) || summary.trim() !== summary || summary === '');
    expect(wordy).toEqual([]);
  });

  it('are unique within the API', () => {
    const seen = new Map<string, string[]>();
    for (const r of routes) seen.set(operationOf(r).summary, [...(seen.get(operationOf(r).summary) ?? []), key(r)]);
    expect([...seen].filter(([, users]) => users.length > 1)).toEqual([]);
  });

  it('come with a description holding the details', () => {
    const bare = routes.filter((r) => typeof operationOf(r).description !== 'string' || operationOf(r).description.length === 0).map(key);
    expect(bare).toEqual([]);
    expect(operationOf(routes.find((r) => key(r) === 'POST /v1/auth/login')!)).toMatchObject({
      summary: 'Sign in',
      description: expect.stringContaining('Sign in with email and password'),
    });
  });
});

describe('request body examples', () => {
  const withExample = routes.filter((r) => r.example !== undefined);

  it('are on every main create and update body', () => {
    const keys = new Set(routes.map(key));
    expect(MUST_HAVE_EXAMPLES.filter((k) => !keys.has(k))).toEqual([]);
    expect(MUST_HAVE_EXAMPLES.filter((k) => routes.find((r) => key(r) === k)!.example === undefined)).toEqual([]);
  });

  it("are accepted by the route's own body schema", () => {
    const refused = withExample.flatMap((r) => {
      if (!r.body) return [{ route: key(r), problem: 'an example without a body' }];
      const parsed = r.body.safeParse(r.example);
      return parsed.success ? [] : [{ route: key(r), problem: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') }];
    });
    expect(refused).toEqual([]);
  });

  it("appear in the operation's request body (application/json, or a file route's media type)", () => {
    for (const r of withExample) {
      // a route whose body is a file (rawBody: a CSV upload) documents it under the file's media type
      expect(operationOf(r).requestBody.content[r.rawBody?.mediaTypes[0] ?? 'application/json'].example, key(r)).toEqual(r.example);
    }
    const undocumented = routes.filter((r) => r.example === undefined && operationOf(r).requestBody?.content['application/json']?.example !== undefined);
    expect(undocumented.map(key)).toEqual([]);
  });

  it('fit the documented body schema (Redocly: no invalid media type examples)', async () => {
    const config = await createConfig({ extends: ['recommended'], rules: { 'no-invalid-media-type-examples': { severity: 'error', allowAdditionalProperties: false } } });
    const problems = await lintFromString({ source: JSON.stringify(document), absoluteRef: 'openapi.json', config });
    const invalid = problems.filter((p) => p.ruleId === 'no-invalid-media-type-examples').map((p) => `${p.message} at ${p.location[0]?.pointer}`);
    expect(invalid).toEqual([]);
  });
});
