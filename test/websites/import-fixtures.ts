// A small public-looking website on 127.0.0.1 for the import tests (reached only with
// WEBSITE_IMPORT_ALLOW_LOOPBACK): pages with hostile markup (script, event handlers, javascript:
// links, frames, expression() styles, tracking pixels, a form), a robots.txt that closes /private,
// a sitemap, a 404, a page larger than an import reads, a JSON answer, a slow page, a redirect, images.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { png } from '../support/file-samples.ts';

export interface SourceSite {
  base: string;
  close(): Promise<void>;
  /** requests seen, by path */
  hits: Map<string, number>;
}

const HOSTILE_HOME = `<!doctype html><html><head><title>Friends of the Park</title>
<meta name="description" content="A park and its friends">
<link rel="icon" href="/static/icon.png">
<script>document.cookie = 'stolen'</script>
<style>.hero { color: #225522; background: url(javascript:alert(1)); width: expression(alert(1)); padding: 12px } @import url(https://evil.example/x.css); h1 { font-size: 40px }</style>
</head><body onload="alert(1)">
<header class="hero" style="margin: 0 auto; behavior: url(x.htc); color: expression(alert(2))"><h1>Welcome to the park</h1>
<nav><ul><li><a href="/about">About us</a></li><li><a href="contact">Contact</a></li><li><a href="javascript:alert(3)">Click me</a></li>
<li><a href="https://elsewhere.example.org/page">Partner</a></li><li><a href="/blog/first-post#top">Blog</a></li></ul></nav></header>
<main><p onclick="alert(4)">We look after <strong>the park</strong> since 1990.</p>
<img src="/img/logo.png" alt="Our logo" onerror="alert(5)">
<img src="/img/broken.png" alt="Broken picture">
<img src="https://pixel.tracker.example/p.gif" width="1" height="1">
<iframe src="https://evil.example/frame"></iframe>
<object data="x.swf"></object>
<svg onload="alert(6)"><circle r="4"/></svg>
<a href="  JaVaScRiPt:alert(7)">sneaky</a>
<form action="/subscribe" method="post"><input name="email" type="email"><input type="hidden" name="t"><button>Subscribe</button></form>
<table><tr><th colspan="2">Hours</th></tr><tr><td>Mon</td><td>9-5</td></tr></table>
</main><footer><p>© Friends</p></footer></body></html>`;

const ABOUT = `<!doctype html><html><head><title>About us</title><style>.hero { color: #aa0000 } .team li { list-style: square }</style></head>
<body><section class="hero"><h2>About</h2><p>Founded by neighbours. <a href="/">Home</a> · <a href="/contact">Contact</a></p>
<ul class="team"><li>Ann</li><li>Bob</li></ul><img src="/img/logo.png" alt="Logo again"></section></body></html>`;

const CONTACT = `<!doctype html><html><head><title>Contact</title></head><body><h1>Contact</h1><p>Write to <a href="mailto:hello@example.org">hello@example.org</a>.</p></body></html>`;

const SITEMAP = (paths: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${paths.map((p) => `<url><loc>{BASE}${p}</loc></url>`).join('')}</urlset>`;

export async function startSourceSite(): Promise<SourceSite> {
  const logo = await png(32, 32);
  const hits = new Map<string, number>();
  let base = '';
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    hits.set(url.pathname, (hits.get(url.pathname) ?? 0) + 1);
    const html = (body: string, status = 200) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
      res.end(body);
    };
    const path = url.pathname;
    if (path === '/robots.txt') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      return res.end('User-agent: *\nDisallow: /private\n\nUser-agent: BadBot\nDisallow: /\n');
    }
    if (path === '/sitemap.xml') {
      res.writeHead(200, { 'content-type': 'application/xml' });
      return res.end(SITEMAP(['/', '/about', '/blog/first-post', '/blog/second-post', '/private/secret']).replaceAll('{BASE}', base));
    }
    if (path === '/') return html(HOSTILE_HOME);
    if (path === '/about') return html(ABOUT);
    if (path === '/contact') return html(CONTACT);
    if (path.startsWith('/blog/')) return html(`<html><head><title>${path}</title></head><body><h1>Post</h1></body></html>`);
    if (path === '/private/secret') return html('<html><body>secret</body></html>');
    if (path === '/huge') {
      res.writeHead(200, { 'content-type': 'text/html' });
      const chunk = `<p>${'x'.repeat(1000)}</p>`;
      for (let i = 0; i < 3000; i++) res.write(chunk);
      return res.end();
    }
    if (path === '/json') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end('{"not":"html"}');
    }
    if (path === '/slow') {
      setTimeout(() => html('<html><head><title>Slow</title></head><body><p>finally</p></body></html>'), 2500);
      return;
    }
    if (path === '/moved') {
      res.writeHead(302, { location: '/about' });
      return res.end();
    }
    if (path === '/img/logo.png' || path === '/static/icon.png') {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': logo.length });
      return res.end(logo);
    }
    return html('<html><body><h1>Not found</h1></body></html>', 404);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    hits,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
