// The content-templates section of `npm run bench`, on a platform server of its own (`svc start`)
// over a fresh database:
//   content-templates-preview  POST /v1/content-templates/{id}/preview-render of a realistic
//                              document template (about 30 merge tags in a few KB of HTML, a
//                              header and footer, tags in a title and after a link's fixed
//                              https prefix) for records of a 30-field collection, 4 connections
//                              (p95 < 30 ms); informational: the same design with one link whose
//                              whole href is a tag, which makes the output be sanitized again
import { ApiClient } from '../events/api-client.ts';
import { startPlatform, svcEnvironment } from '../events/platform-process.ts';
import { judged } from '../events/results.ts';
import { summarizeLatencies } from '../events/stats.ts';
import { defineBenchSection } from '../bench-section.ts';
import { runSection, type SectionRun } from '../section-bed.ts';

export const CONTENT_TEMPLATE_SCENARIOS = ['content-templates-preview'] as const;
export type ContentTemplateScenario = (typeof CONTENT_TEMPLATE_SCENARIOS)[number];

const FIELDS = 30;
const RECORDS = 20;
const CONNECTIONS = 4;
const REQUESTS_PER_CONNECTION = 150;
const WARMUP = 50;
const TARGET_P95_MS = 30;

const p95 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.ceil(0.95 * values.length) - 1]!;

async function ok(api: ApiClient, method: string, url: string, body?: unknown): Promise<any> {
  const response = await api.request(method, url, body);
  if (response.status >= 300) throw new Error(`${method} ${url} answered ${response.status}: ${JSON.stringify(response.body).slice(0, 300)}`);
  return response.body.data;
}

/** A letter of about 5 KB: a table of the record's 30 fields, a few paragraphs, links and images. */
function letterHtml(columns: string[]): string {
  const rows = columns.map((c, i) => `<tr><td style="padding:4px 8px;border-bottom:1px solid #ddd"><b>Field ${i + 1}</b></td><td style="padding:4px 8px">{{${c}}}</td></tr>`).join('\n');
  const paragraph =
    '<p style="font-family:Georgia,serif;line-height:1.5">Thank you for your continued support of our work this year. Your contribution made a real difference to the people we serve, and we are glad to count you among our members.</p>';
  return [
    '<h1 style="font-family:Arial,sans-serif;color:#223">Dear {{record.name}},</h1>',
    paragraph,
    `<table style="width:100%;border-collapse:collapse">\n${rows}\n</table>`,
    paragraph,
    '<p>Your profile: <a href="https://example.org/members/{{record.id}}" title="{{field_1}}">open it online</a>.</p>',
    '<p><img src="https://cdn.example.org/logo.png" alt="Logo" width="120"> With kind regards, the membership team</p>',
    paragraph,
  ].join('\n');
}

async function previewScenario(api: ApiClient, { lines, targets, summary, progress }: SectionRun): Promise<void> {
  progress('content-templates: preview-render of a 30-tag design');
  const columns = Array.from({ length: FIELDS }, (_, i) => `field_${i + 1}`);
  const collection = await ok(api, 'POST', '/v1/data-collections', {
    name: 'Members',
    fields: columns.map((columnName, i) => ({ title: `Field ${i + 1}`, columnName, dataType: 'PLAIN_TEXT' })),
  });
  const fieldIds: Record<string, string> = Object.fromEntries((collection.fields as { id: string; columnName: string }[]).map((f) => [f.columnName, f.id]));
  const records: string[] = [];
  for (let r = 0; r < RECORDS; r++) {
    const fields = Object.fromEntries(columns.map((c, i) => [fieldIds[c], `Value ${r}-${i} <with> "markup" & more`]));
    records.push((await ok(api, 'POST', '/v1/data-records', { dataCollectionSimplyId: collection.id, fields })).id);
  }
  const template = await ok(api, 'POST', '/v1/content-templates', {
    name: 'Annual letter',
    dataCollectionSimplyId: collection.id,
    documentSettings: { pageSize: 'A4', headerHtml: '<b>{{field_1}}</b> · Annual letter', footerHtml: '<small>{{record.name}} · {{field_2}}</small>' },
  });
  const html = letterHtml(columns);
  await ok(api, 'PATCH', `/v1/content-templates/${template.id}`, { designHtml: html });
  const url = `/v1/content-templates/${template.id}/preview-render`;
  for (let i = 0; i < WARMUP; i++) await ok(api, 'POST', url, { dataRecordSimplyId: records[i % RECORDS] });
  const measured: number[] = [];
  const lane = async (laneIndex: number) => {
    for (let i = 0; i < REQUESTS_PER_CONNECTION; i++) {
      const response = await api.request('POST', url, { dataRecordSimplyId: records[(i + laneIndex) % RECORDS] });
      if (response.status !== 200) throw new Error(`${url} answered ${response.status}: ${JSON.stringify(response.body).slice(0, 300)}`);
      measured.push(response.doneAt - response.sentAt);
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, (_, i) => lane(i)));
  const alone: number[] = [];
  for (let i = 0; i < 100; i++) {
    const response = await api.request('POST', url, { dataRecordSimplyId: records[i % RECORDS] });
    alone.push(response.doneAt - response.sentAt);
  }
  // a link whose whole href is a tag: the filled-in HTML goes through the sanitizer once more
  const resanitized = await ok(api, 'POST', `/v1/content-templates/${template.id}/copy`, {});
  await ok(api, 'PATCH', `/v1/content-templates/${resanitized.id}`, { designHtml: `${html}\n<p><a href="{{field_30}}">website</a></p>` });
  const again: number[] = [];
  for (let i = 0; i < 100 + WARMUP; i++) {
    const response = await api.request('POST', `/v1/content-templates/${resanitized.id}/preview-render`, { dataRecordSimplyId: records[i % RECORDS] });
    if (response.status !== 200) throw new Error(`preview of the re-sanitized design answered ${response.status}`);
    if (i >= WARMUP) again.push(response.doneAt - response.sentAt);
  }
  const s = summarizeLatencies(measured);
  const value = p95(measured);
  summary.preview = { mergeTags: FIELDS + 5, designHtmlChars: html.length, connections: CONNECTIONS, requests: measured.length, ...s, p95: value, aloneP50: summarizeLatencies(alone).p50, aloneP95: p95(alone), resanitizedAloneP50: summarizeLatencies(again).p50, resanitizedAloneP95: p95(again) };
  lines.push(
    '',
    `content-templates-preview: a ${(html.length / 1024).toFixed(1)} KB design with ${FIELDS + 3} merge tags (plus header and footer), ${RECORDS} records of ${FIELDS} fields, ${CONNECTIONS} connections, ${measured.length} requests`,
    `  preview-render: p50 ${s.p50.toFixed(1)} ms, p95 ${value.toFixed(1)} ms, p99 ${s.p99.toFixed(1)} ms`,
    `  one request at a time (informational): p50 ${summarizeLatencies(alone).p50.toFixed(1)} ms, p95 ${p95(alone).toFixed(1)} ms`,
    `  one at a time, with a link whose whole href is a tag (sanitized again; informational): p50 ${summarizeLatencies(again).p50.toFixed(1)} ms, p95 ${p95(again).toFixed(1)} ms`,
  );
  targets.push(judged(`content template preview-render, ${CONNECTIONS} connections, p95 < ${TARGET_P95_MS} ms`, `${value.toFixed(1)} ms`, value < TARGET_P95_MS));
}

export const runContentTemplatesSection = (scenarios: readonly ContentTemplateScenario[], progress: (line: string) => void) =>
  runSection('content-templates', scenarios, progress, async (bed) => {
    const boot = await bed.bootstrap('Bench content templates');
    const platform = await startPlatform(svcEnvironment({ ...bed.env, PORT: '0', RATE_LIMIT_PER_MINUTE: '1000000' }));
    bed.onCleanup(() => platform.stop());
    const api = new ApiClient({ baseUrl: platform.baseUrl, ca: platform.ca, apiKey: boot.apiKey, sockets: CONNECTIONS });
    await bed.scenario('content-templates-preview', () => previewScenario(api, bed));
  });

export const benchSection = defineBenchSection('content-templates', CONTENT_TEMPLATE_SCENARIOS, runContentTemplatesSection);
