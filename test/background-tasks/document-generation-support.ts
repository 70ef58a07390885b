// What the document-generation and record-output suites share: a collection with file fields, a
// document template over it, and reading a generated PDF back (through the files API's presigned
// URL, then pdf.js via unpdf).
import { extractText, getDocumentProxy } from 'unpdf';
import { Agent, fetch as undiciFetch } from 'undici';
import { type CollectionFixture, createCollection, REQUIRED_TEXT } from '../support/data-fixtures.ts';
import { expectOk } from '../support/expect-envelope.ts';
import type { TeamFixture } from '../support/fixtures.ts';
import type { TestServer } from '../support/server.ts';

export const GEN = 'DOCUMENT_GENERATION';
export const OUTPUTS = '/v1/background-tasks/record-outputs';
export const HISTORY = '/v1/background-tasks/record-history';
export const DEFAULTS = '/v1/background-tasks/output-defaults';
export const ELIGIBLE = '/v1/background-tasks/output-destinations/eligible';

/** People with a single-file field (contract), a multi-file field (papers) and a one-file multi-file field (box). */
export function peopleWithFiles(server: TestServer, team: TeamFixture, name = 'People'): Promise<CollectionFixture> {
  return createCollection(server, team, {
    name,
    formula: '{first_name} {last_name}',
    fields: {
      first_name: REQUIRED_TEXT,
      last_name: 'PLAIN_TEXT',
      note: 'PLAIN_TEXT',
      contract: 'SINGLE_FILE',
      papers: 'MULTI_FILE',
      box: { dataType: 'MULTI_FILE', config: { maxItems: 1 } },
    },
  });
}

/** A document template of `collection` with a header and footer; answers its simplyId. */
export async function documentTemplate(server: TestServer, team: TeamFixture, collection: CollectionFixture, options: { name?: string; designHtml?: string } = {}): Promise<string> {
  const created = expectOk(
    await server.request('POST', '/v1/content-templates', {
      token: team.apiKey,
      body: {
        name: options.name ?? 'Certificate',
        dataCollectionSimplyId: collection.id,
        textContent: 'Certificate',
        documentSettings: { pageSize: 'A4', marginsMm: { top: 25, bottom: 25 }, headerHtml: '<b>Header for {{first_name}}</b>', footerHtml: '<i>Footer of the certificate</i>, page <span class="pageNumber"></span> of <span class="totalPages"></span>' },
      },
    }),
    201,
  );
  expectOk(
    await server.request('PATCH', `/v1/content-templates/${created.id}`, {
      token: team.apiKey,
      body: { designHtml: options.designHtml ?? '<h1>Certificate for {{first_name}} {{last_name}}</h1><p>Note: {{note}}</p><img src="https://example.com/tracker.png" alt="">' },
    }),
  );
  return created.id;
}

export async function fetchBytes(server: TestServer, url: string): Promise<{ status: number; bytes: Buffer }> {
  const response = await undiciFetch(url, { dispatcher: new Agent({ connect: { ca: server.ca || undefined } }) });
  return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()) };
}

/** The text of each page of a PDF. */
export async function pdfPages(bytes: Buffer): Promise<string[]> {
  const doc = await getDocumentProxy(new Uint8Array(bytes));
  const { text } = await extractText(doc, { mergePages: false });
  return text as string[];
}

/** A stored file's bytes through GET /v1/files/{id}/download and its presigned URL. */
export async function fileBytes(server: TestServer, team: TeamFixture, fileSimplyId: string): Promise<Buffer> {
  const link = expectOk(await server.request('GET', `/v1/files/${fileSimplyId}/download`, { token: team.apiKey }));
  const file = await fetchBytes(server, link.url);
  if (file.status !== 200) throw new Error(`download of ${fileSimplyId}: ${file.status}`);
  return file.bytes;
}
