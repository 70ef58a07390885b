// POST /v1/content-templates/{id}/preview-render (and the contentTemplatePreview query): merge tags
// filled from one record the caller may read, values escaped, hostile values and tag names
// harmless, hidden fields empty, nothing stored, and other records 404.
import { beforeAll, describe, expect, it } from 'vitest';
import { createCollection, type CollectionFixture } from '../support/data-fixtures.ts';
import { createKeyHidingField } from '../support/data-permission-fixtures.ts';
import { expectError, expectGqlError, expectOk, gqlData } from '../support/expect-envelope.ts';
import { createApiKey, createRole } from '../support/fixtures.ts';
import { createRecord } from '../support/record-fixtures.ts';
import { restCaller } from '../support/rest-caller.ts';
import { useServer } from '../support/use-server.ts';
import { needsResanitizing } from '../../src/modules/content-templates/template-preview.ts';
import { createTemplate, documentBody, GQL, messageBody, one } from './template-fixtures.ts';

const DANGER = [/<script/i, /\son\w+\s*=/i, /javascript:/i, /<iframe/i];

describe('preview-render', () => {
  const { server, teams: [team, other] } = useServer({ teams: 2 });
  const call = restCaller(() => server, () => team.apiKey);
  const preview = (id: string, body: unknown, token?: string) => call('POST', `${one(id)}/preview-render`, body, token);
  let people: CollectionFixture;
  let hostileRecord: string;
  let plainRecord: string;
  let template: string;

  beforeAll(async () => {
    people = await createCollection(server, team, {
      name: 'People',
      formula: '{first_name} {last_name}',
      fields: { first_name: 'PLAIN_TEXT', last_name: 'PLAIN_TEXT', website: 'PLAIN_TEXT', secret: 'PLAIN_TEXT', notes: 'FORMATTED_TEXT' },
    });
    const f = people.fields;
    hostileRecord = (await createRecord(server, team.apiKey, people.id, {
      [f.first_name!]: '<script>alert(1)</script>',
      [f.last_name!]: 'O"Brien & <b>Sons</b> \' {{record.id}}',
      [f.website!]: 'javascript:alert(document.cookie)',
      [f.secret!]: 'the secret',
      [f.notes!]: '<p>Wrote <img src=x onerror=alert(1)> notes</p>',
    })).id;
    plainRecord = (await createRecord(server, team.apiKey, people.id, { [f.first_name!]: 'Ada', [f.last_name!]: 'Lovelace', [f.website!]: 'https://ada.example', [f.secret!]: 'hers' })).id;
    template = (await createTemplate(call, documentBody(people.id, {
      documentSettings: { pageSize: 'LETTER', orientation: 'LANDSCAPE', marginsMm: { top: 15 }, headerHtml: '<b>To {{first_name}}</b>', footerHtml: '<small>{{record.name}}</small>' },
    }))).id;
    expectOk(await call('PATCH', one(template), {
      designHtml: '<p>Dear {{first_name}} {{last_name}},</p><a href="{{website}}">site</a><p title="{{last_name}}">[{{missing_field}}][{{__proto__}}][{{constructor}}]</p><div>{{notes}}</div><p>{{secret}}</p>',
    }));
  });

  it('fills the tags from the record: html, bodyHtml, headerHtml, footerHtml; page setup in html', async () => {
    const out = expectOk(await preview(template, { dataRecordSimplyId: plainRecord }));
    expect(Object.keys(out).sort()).toEqual(['bodyHtml', 'footerHtml', 'headerHtml', 'html']);
    expect(out.bodyHtml).toBe('<p>Dear Ada Lovelace,</p><a href="https://ada.example">site</a><p title="Lovelace">[][][]</p><div></div><p>hers</p>');
    expect(out.headerHtml).toBe('<b>To Ada</b>');
    expect(out.footerHtml).toBe('<small>Ada Lovelace</small>');
    expect(out.html).toMatch(/^<!DOCTYPE html>/);
    expect(out.html).toContain('@page { size: 279.4mm 215.9mm; margin: 15mm 20mm 20mm 20mm; }');
    expect(out.html).toContain('<header><b>To Ada</b></header>');
    expect(out.html).toContain(`<main>${out.bodyHtml}</main>`);
    expect(out.html).toContain('<footer><small>Ada Lovelace</small></footer>');
  });

  it('hostile values are escaped text: no markup, no script URL, no second rendering of a value', async () => {
    const out = expectOk(await preview(template, { dataRecordSimplyId: hostileRecord }));
    for (const text of [out.html, out.bodyHtml, out.headerHtml, out.footerHtml]) for (const pattern of DANGER) expect(text, String(pattern)).not.toMatch(pattern);
    expect(out.bodyHtml).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(out.bodyHtml).toContain('O"Brien &amp; &lt;b&gt;Sons&lt;/b&gt;');
    // the value's own {{record.id}} stays literal text
    expect(out.bodyHtml).toContain('{{record.id}}');
    expect(out.bodyHtml).not.toContain(hostileRecord);
    // the link whose whole href came from the record lost it
    expect(out.bodyHtml).toContain('<a>site</a>');
    // a formatted field renders as its text only
    expect(out.bodyHtml).toContain('<div>Wrote notes</div>');
    expect(out.headerHtml).toBe('<b>To &lt;script&gt;alert(1)&lt;/script&gt;</b>');
  });

  it('values in style attributes, <style> elements and at the start of links are sanitized after filling in; a fixed link prefix keeps the value as escaped text', async () => {
    const risky = await createTemplate(call, documentBody(people.id));
    expectOk(await call('PATCH', one(risky.id), { designHtml: '<p style="color: {{website}}">c</p><style>p { color: {{website}} }</style><img src="{{website}}" alt="{{last_name}}">' }));
    const out = expectOk(await preview(risky.id, { dataRecordSimplyId: hostileRecord }));
    for (const pattern of DANGER) expect(out.bodyHtml, String(pattern)).not.toMatch(pattern);
    expect(out.bodyHtml).toMatch(/^<p>c<\/p><style><\/style><img( alt="[^"]*")?>$/);
    expect(expectOk(await preview(risky.id, { dataRecordSimplyId: plainRecord })).bodyHtml).toBe(
      '<p style="color: https://ada.example">c</p><style>p { color: https://ada.example }</style><img src="https://ada.example" alt="Lovelace">',
    );

    const fixed = await createTemplate(call, documentBody(people.id));
    expectOk(await call('PATCH', one(fixed.id), { designHtml: '<a href="https://x.example/{{first_name}}?q={{website}}" title="{{last_name}}">ok</a>' }));
    const link = expectOk(await preview(fixed.id, { dataRecordSimplyId: hostileRecord })).bodyHtml;
    expect(link).toBe('<a href="https://x.example/&lt;script&gt;alert(1)&lt;/script&gt;?q=javascript:alert(document.cookie)" title="O&quot;Brien &amp; &lt;b&gt;Sons&lt;/b&gt; &#39; {{record.id}}">ok</a>');
  });

  it('tells where a filled-in value could change what the markup does', () => {
    const risky = [
      '<a href="{{x}}">a</a>',
      '<a href=" {{x}}">a</a>',
      '<a href="java{{x}}">a</a>',
      '<img src="{{x}}">',
      '<p style="color: {{x}}">a</p>',
      '<style>p { color: {{x}} }</style>',
      '<p {{x}}>a</p>',
      '<a href={{x}}>a</a>',
      '<!-- {{x}} -->',
      '<img srcset="https://a.example/{{x}} 2x">',
    ];
    const safe = [
      '<p>{{x}}</p>',
      '<p title="{{x}}">a</p>',
      '<a href="https://a.example/{{x}}">a</a>',
      '<a href="mailto:{{x}}">a</a>',
      '<a href="#{{x}}">a</a>',
      '<a href="/members/{{x}}">a</a>',
      '<style>p { color: red }</style><p>{{x}}</p>',
      '<p title="a&gt;b" class="c">{{x}}</p>',
      'no tags at all',
    ];
    for (const html of risky) expect(needsResanitizing(html), html).toBe(true);
    for (const html of safe) expect(needsResanitizing(html), html).toBe(false);
  });

  it('a text-only template renders its text escaped, in paragraphs with line breaks', async () => {
    const t = await createTemplate(call, messageBody({ textContent: 'Hi {{first_name}} <b>&\nline two\n\nParagraph {{last_name}}' }));
    const out = expectOk(await preview(t.id, { dataRecordSimplyId: hostileRecord, previewRoleKey: 'signer_1' }));
    expect(out.bodyHtml).toBe('<p>Hi &lt;script&gt;alert(1)&lt;/script&gt; &lt;b&gt;&amp;<br>line two</p>\n<p>Paragraph O&quot;Brien &amp; &lt;b&gt;Sons&lt;/b&gt; &#39; {{record.id}}</p>');
    expect(out).toMatchObject({ headerHtml: null, footerHtml: null });
    expect(out.html).not.toContain('@page');
  });

  it('fields the caller may not read render empty; a record it may not read is 404 like a missing one', async () => {
    const hiding = await createKeyHidingField(server, team, people, 'secret', { role: 'no secrets', key: 'no secrets' });
    const out = expectOk(await preview(template, { dataRecordSimplyId: plainRecord }, hiding));
    expect(out.bodyHtml).toContain('<p></p>');
    expect(out.bodyHtml).not.toContain('hers');
    expect(out.bodyHtml).toContain('Dear Ada Lovelace');

    const elsewhere = await createCollection(server, team, { name: 'Elsewhere', fields: { first_name: 'PLAIN_TEXT' } });
    const hidden = (await createRecord(server, team.apiKey, elsewhere.id, { [elsewhere.fields.first_name!]: 'Hidden Person' })).id;
    const role = await createRole(server, team, { name: 'people readers', dataPermissions: [{ dataCollectionSimplyId: people.id, level: 'READ' }] });
    const reader = (await createApiKey(server, team, { name: 'people reader', teamRoleSimplyId: role })).key;
    expectOk(await preview(template, { dataRecordSimplyId: plainRecord }, reader));
    const theirCollection = await createCollection(server, other, { name: 'Theirs', fields: { first_name: 'PLAIN_TEXT' } });
    const theirs = (await createRecord(server, other.apiKey, theirCollection.id, { [theirCollection.fields.first_name!]: 'Their Person' })).id;
    for (const [record, token] of [[hidden, reader], [theirs, team.apiKey], ['2222-2222-2222', team.apiKey]] as const) {
      const error = expectError(await preview(template, { dataRecordSimplyId: record }, token), 404, 'NOT_FOUND', record);
      expect(error.message).not.toContain('Hidden Person');
    }
    // the admin key reads the other collection: its record renders with that collection's fields (the tags of People's other fields render empty)
    expect(expectOk(await preview(template, { dataRecordSimplyId: hidden })).bodyHtml).toContain('Dear Hidden Person ,');
  });

  it('creates nothing: no file, no template, no record change', async () => {
    const count = () => Promise.all([server.app.services.prisma.storedFile.count({ where: { teamId: team.teamId } }), server.app.services.prisma.contentTemplate.count({ where: { teamId: team.teamId } })]);
    const before = await count();
    const record = await server.app.services.prisma.dataRecord.findFirstOrThrow({ where: { simplyId: plainRecord } });
    for (let i = 0; i < 3; i++) expectOk(await preview(template, { dataRecordSimplyId: plainRecord }));
    expect(await count()).toEqual(before);
    expect((await server.app.services.prisma.dataRecord.findFirstOrThrow({ where: { simplyId: plainRecord } })).updatedAt).toEqual(record.updatedAt);
  });

  it('an archived template still previews (consumers keep working)', async () => {
    const t = await createTemplate(call, messageBody({ textContent: 'Bye {{first_name}}' }));
    expectOk(await call('DELETE', one(t.id)));
    expect(expectOk(await preview(t.id, { dataRecordSimplyId: plainRecord })).bodyHtml).toBe('<p>Bye Ada</p>');
  });

  it('refuses bad bodies with 400 naming the field', async () => {
    for (const [body, field] of [
      [{}, 'dataRecordSimplyId'],
      [{ dataRecordSimplyId: 'rec-1' }, 'dataRecordSimplyId'],
      [{ dataRecordSimplyId: 42 }, 'dataRecordSimplyId'],
      [{ dataRecordSimplyId: plainRecord, previewRoleKey: 'has spaces' }, 'previewRoleKey'],
      [{ dataRecordSimplyId: plainRecord, previewRoleKey: 'x'.repeat(101) }, 'previewRoleKey'],
      [{ dataRecordSimplyId: plainRecord, locale: 'en' }, 'locale'],
    ] as [Record<string, unknown>, string][]) {
      const error = expectError(await preview(template, body), 400, 'VALIDATION_ERROR', JSON.stringify(body));
      expect(error.details?.map((d) => d.field)).toContain(field);
    }
    expectGqlError(await server.graphql(GQL.preview, { id: template, input: { dataRecordSimplyId: 'nope' } }, { token: team.apiKey }), 'VALIDATION_ERROR', 400);
  });

  it('GraphQL contentTemplatePreview answers the same', async () => {
    const viaGql = gqlData(await server.graphql(GQL.preview, { id: template, input: { dataRecordSimplyId: plainRecord } }, { token: team.apiKey })).contentTemplatePreview;
    expect(viaGql).toEqual(expectOk(await preview(template, { dataRecordSimplyId: plainRecord })));
  });
});
