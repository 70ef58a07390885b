// The server-side renderer of designs (src/modules/websites/render-design.ts, render-page.ts): for
// the component types a site uses it gives the markup GrapesJS's own export gives (`getHtml()`,
// `getCss()` with avoidInlineStyle: inline styles as #id rules), compared as parsed DOM; videos are
// links, never frames; the same design gives the same bytes; and nothing of an XSS corpus stored in a
// design (as designs written before today's checks could be) survives the render and its sanitizer.
import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import type { DesignDocument } from '../../src/modules/websites/design-document.ts';
import { renderDesign } from '../../src/modules/websites/render-design.ts';
import { renderPage } from '../../src/modules/websites/render-page.ts';
import { sanitizeServedMarkup } from '../../src/modules/websites/render-sanitize.ts';

const render = (design: DesignDocument) => {
  const out = renderDesign(design, { sanitizeFragment: sanitizeServedMarkup });
  return { ...out, html: sanitizeServedMarkup(out.html) };
};

/** The fragment as a browser parses it, attributes in name order: markup compared by meaning, not spelling. */
function normalized(html: string): string {
  const { document } = new JSDOM(`<body>${html}</body>`).window;
  const walk = (el: Element) => {
    const attrs = [...el.attributes].map((a) => [a.name, a.value] as const).sort(([a], [b]) => a.localeCompare(b));
    for (const [name] of attrs) el.removeAttribute(name);
    for (const [name, value] of attrs) el.setAttribute(name, value);
    [...el.children].forEach(walk);
  };
  [...document.body.children].forEach(walk);
  return document.body.innerHTML;
}

// What GrapesJS 0.22's editor.getHtml() writes for each component (the project JSON it saves beside it)
const GRAPESJS_CASES: { name: string; components: DesignDocument['components']; html: string }[] = [
  {
    name: 'a text component with its content and a text node',
    components: [{ type: 'text', attributes: { id: 'i1' }, content: 'Hello <b>bold</b> ', components: [{ type: 'textnode', content: 'and 1 < 2 & "quotes"' }] }],
    html: '<div id="i1">Hello <b>bold</b> and 1 &lt; 2 &amp; "quotes"</div>',
  },
  {
    name: 'an image (its src is a property of the component)',
    components: [{ type: 'image', src: 'https://example.org/a.png', attributes: { id: 'im', alt: 'A tree' }, classes: ['photo', { name: 'wide' }] }],
    html: '<img id="im" class="photo wide" src="https://example.org/a.png" alt="A tree">',
  },
  {
    name: 'a link with text, opening in a new tab',
    components: [{ type: 'link', attributes: { id: 'l1', href: 'https://example.org/', target: '_blank', title: 'Go' }, components: [{ type: 'textnode', content: 'Example' }] }],
    html: '<a id="l1" href="https://example.org/" target="_blank" title="Go">Example</a>',
  },
  {
    name: 'sections and divs with classes',
    components: [{ tagName: 'section', attributes: { id: 's1' }, classes: ['hero'], components: [{ attributes: { id: 'd1' }, classes: ['row', 'dark'], components: [{ tagName: 'h2', attributes: { id: 'h' }, components: [{ type: 'textnode', content: 'Title' }] }] }] }],
    html: '<section id="s1" class="hero"><div id="d1" class="row dark"><h2 id="h">Title</h2></div></section>',
  },
  {
    name: 'a list',
    components: [{ tagName: 'ul', attributes: { id: 'u' }, components: [{ tagName: 'li', attributes: { id: 'a' }, components: [{ type: 'textnode', content: 'One' }] }, { tagName: 'li', attributes: { id: 'b' }, components: [{ type: 'textnode', content: 'Two' }] }] }],
    html: '<ul id="u"><li id="a">One</li><li id="b">Two</li></ul>',
  },
  {
    name: 'a table of the basic blocks',
    components: [{ type: 'table', attributes: { id: 't' }, components: [{ type: 'tbody', attributes: { id: 'tb' }, components: [{ type: 'row', attributes: { id: 'r' }, components: [{ type: 'cell', attributes: { id: 'c' }, components: [{ type: 'textnode', content: 'Cell' }] }] }] }] }],
    html: '<table id="t"><tbody id="tb"><tr id="r"><td id="c">Cell</td></tr></tbody></table>',
  },
];

describe('the renderer against GrapesJS’s own export', () => {
  for (const c of GRAPESJS_CASES) {
    it(c.name, () => {
      expect(normalized(render({ components: c.components, styles: [] }).html)).toBe(normalized(c.html));
    });
  }

  it('writes rules as GrapesJS does: classes and ids, states, media groups, inline styles by id', () => {
    const { css } = render({
      components: [{ tagName: 'p', attributes: { id: 'p1' }, style: { color: 'red', 'font-size': '2rem' } }],
      styles: [
        { selectors: ['hero'], style: { padding: '2rem' } },
        { selectors: ['#p1'], style: { margin: '0' } },
        { selectors: [{ name: 'btn', type: 1 }], state: 'hover', style: { color: 'blue' } },
        { selectors: ['hero'], mediaText: '(max-width: 768px)', atRuleType: 'media', style: { padding: '1rem' } },
        { selectors: [], selectorsAdd: 'body', style: { 'background-color': '#fff' } },
      ],
    });
    expect(css).toBe('.hero{padding:2rem;}\n#p1{margin:0;}\n.btn:hover{color:blue;}\nbody{background-color:#fff;}\n@media (max-width: 768px){.hero{padding:1rem;}}\n#p1{color:red;font-size:2rem;}');
  });

  it('makes a video a link to it (with its poster), never a frame', () => {
    const { html } = render({
      components: [
        { type: 'video', provider: 'yt', videoId: 'dQw4w9WgXcQ', src: 'https://www.youtube.com/embed/dQw4w9WgXcQ', attributes: { id: 'v1', poster: 'https://example.org/poster.jpg' } },
        { type: 'video', src: 'https://example.org/clip.mp4', attributes: { id: 'v2', title: 'Our clip' } },
      ],
      styles: [],
    });
    expect(normalized(html)).toBe(
      normalized(
        '<a id="v1" class="svc-video" href="https://www.youtube.com/watch?v=dQw4w9WgXcQ"><img src="https://example.org/poster.jpg" alt=""><span>Watch the video</span></a>' +
          '<a id="v2" class="svc-video" href="https://example.org/clip.mp4"><span>Our clip</span></a>',
      ),
    );
    expect(html).not.toMatch(/iframe/);
  });

  it('gives the same bytes for the same design, whatever happened between', () => {
    const design: DesignDocument = {
      components: GRAPESJS_CASES.flatMap((c) => c.components),
      styles: [{ selectors: ['hero'], style: { padding: '2rem' } }],
    };
    const page = () =>
      renderPage({
        site: { name: 'Park', metaTitle: null, metaDescription: 'About <it>', socialImageUrl: 'https://example.org/s.png', faviconFileSimplyId: 'fil-AAAA-BBBB-CCCC', defaultLanguageTagId: 'de', navigationJson: null, header: null, footer: null },
        page: { simplyId: 'wpg-AAAA-BBBB-CCCC', title: 'Home', metaTitle: null, metaDescription: null, design: structuredClone(design) },
        basePath: '/sites/park',
        pages: new Map(),
        chrome: [],
      });
    const first = page();
    render({ components: [{ type: 'text', content: '<p>something else</p>' }], styles: [] });
    const second = page();
    expect(Buffer.from(second.html).equals(Buffer.from(first.html))).toBe(true);
    expect(second.styleHash).toBe(first.styleHash);
    expect(first.html).toContain('<html lang="de">');
    expect(first.html).toContain('<link rel="icon" href="/sites/park/favicon.ico">');
    expect(first.html).toContain('<meta property="og:image" content="https://example.org/s.png">');
  });
});

// markup a design might hold (stored before today's checks, or through a text component's content)
const XSS_CORPUS = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '<a href="javascript:alert(1)">x</a>',
  '<a href="java&#x09;script:alert(1)">x</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>',
  '<svg onload=alert(1)><circle r=1></circle></svg>',
  '<svg><script>alert(1)</script></svg>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '<iframe src="https://evil.example"></iframe>',
  '<object data="javascript:alert(1)"></object>',
  '<div style="background:url(javascript:alert(1))">x</div>',
  '<div style="width:expression(alert(1))">x</div>',
  '<form action="https://evil.example"><input name=a><button>go</button></form>',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<base href="https://evil.example/">',
  '<style>body{background:url(https://evil.example)}</style>',
  '<img src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+">',
  '<details open ontoggle=alert(1)>',
  '</div></main><script>alert(1)</script>',
];

describe('an XSS corpus in a design', () => {
  it('never reaches the rendered markup, in text components, text nodes, attributes or styles', () => {
    for (const payload of XSS_CORPUS) {
      const { html, css } = render({
        components: [
          { type: 'text', attributes: { id: 'a1' }, content: payload },
          { type: 'textnode', content: payload },
          { tagName: 'a', attributes: { id: 'a2', href: 'javascript:alert(1)', onclick: 'alert(1)', style: 'color:red;background:url(javascript:alert(1))' } },
          { tagName: 'script', attributes: { id: 'a3' }, components: [{ type: 'textnode', content: 'alert(1)' }] },
          { type: 'iframe', attributes: { id: 'a4', src: 'https://evil.example' } },
          { tagName: 'img', attributes: { id: 'a5', src: 'data:image/svg+xml;base64,PHN2Zz4=', srcset: 'javascript:alert(1) 1x' } },
        ],
        styles: [
          { selectors: ['x'], style: { width: 'expression(alert(1))', background: 'url("javascript:alert(1)")', color: 'red}</style><script>alert(1)</script>' } },
          { selectors: [], selectorsAdd: 'body{}</style><script>', style: { color: 'red' } },
          { selectors: ['y'], mediaText: 'screen{}</style>', style: { color: 'red' } },
        ],
      });
      const dom = new JSDOM(`<body>${html}</body>`).window.document;
      expect(dom.querySelectorAll('script,iframe,object,embed,svg,math,form,input,meta,base,style,link').length, payload).toBe(0);
      for (const el of dom.querySelectorAll('*')) {
        for (const attr of el.attributes) {
          expect(attr.name, payload).not.toMatch(/^on/);
          expect(attr.value.replace(/\s/g, ''), payload).not.toMatch(/^(?:javascript|vbscript|data:(?!image\/(?:png|jpeg|gif|webp)))/i);
        }
      }
      expect(css).not.toMatch(/expression|javascript|<|\}\s*\{/i);
      expect(html).not.toMatch(/<script/i);
    }
  });
});
