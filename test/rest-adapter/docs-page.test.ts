// /docs in a real browser: the machine's Chromium (puppeteer-core; never a downloaded browser)
// loads the API reference from the test server, the route list renders from /openapi.json, and
// every request the page makes stays on the server's own origin (renderer bundle included).
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkDocsPage, DOCS_EXPECTED_TEXTS, type DocsCheckResult, SIDEBAR_NAME_MAX } from '../../rest-adapter/docs-browser-check.ts';
import { routes } from '../../src/main/modules.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server?.close();
});

describe('/docs', () => {
  it('serves the page, the renderer bundle from node_modules, and /openapi.json', async () => {
    const page = await server.request('GET', '/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(page.text).toContain('data-url="/openapi.json"');
    expect(page.text).not.toMatch(/https?:\/\//);
    const bundle = page.text.match(/<script src="(\/docs\/[^"]+\.js)"/)?.[1];
    expect(bundle).toBeDefined();
    const script = await server.request('GET', bundle!);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/javascript/);
    expect(script.text).toContain('createApiReference');
    const spec = await server.request('GET', '/openapi.json');
    expect(spec.status).toBe(200);
    expect(spec.body.openapi).toBe('3.1.0');
    expect(spec.body.servers).toEqual([{ url: server.baseUrl }]);
    expect((await server.request('GET', '/docs/nothing-here.js')).status).toBe(404);
  });

  describe('in Chromium', () => {
    let result: DocsCheckResult;

    beforeAll(async () => {
      result = await checkDocsPage({
        baseUrl: server.baseUrl,
        expectTexts: DOCS_EXPECTED_TEXTS,
        screenshot: path.join(os.tmpdir(), `svc-docs-page-${process.pid}.png`),
      });
    }, 120_000);

    it('renders the route list', () => {
      expect(result.found).toEqual(DOCS_EXPECTED_TEXTS);
    });

    it("shows none of the renderer's buttons that lead to its vendor's hosted services (Share, Deploy, Developer Tools), even on localhost", () => {
      expect(result.vendorToolbar).toEqual([]);
    });

    it('makes every request to the server itself', () => {
      expect(result.requests.length).toBeGreaterThanOrEqual(3);
      expect(result.requests.some((u) => u.endsWith('/openapi.json'))).toBe(true);
      expect(result.foreignRequests).toEqual([]);
      expect(result.problems).toEqual([]);
    });

    it('names every operation in the sidebar in a few words', () => {
      expect(result.sidebarOperations).toHaveLength(routes.length);
      expect(result.sidebarOperations).toContain('Sign in');
      expect(result.sidebarOperations).toContain('Create a webhook');
      expect(result.sidebarOperations.filter((name) => name.length > SIDEBAR_NAME_MAX)).toEqual([]);
    });

    it('saves a screenshot', async () => {
      const { statSync } = await import('node:fs');
      expect(statSync(result.screenshot).size).toBeGreaterThan(10_000);
    });
  });
});
