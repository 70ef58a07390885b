// POST /v1/websites/{id}/blog/setup (docs/api/websites.md "Blog"): the default blog pages: a
// "Blog" root page at /blog whose design is a listing section, and a first example post under it.
// Idempotent: the site's blog is its root page with the slug `blog`; when there is one, nothing is
// made and the answer is that page with the posts under it. Made under the site's row lock, so
// concurrent calls make one blog.
import type { RequestContext } from '../../app/context.ts';
import { runTransaction } from '../../app/transaction.ts';
import type { Website, WebsitePage } from '../../generated/prisma/client.ts';
import { type DesignComponent, type DesignDocument, parseDesign } from './design-document.ts';
import { insertPage } from './page-insert.ts';
import { PageTree } from './page-tree.ts';
import type { PageView } from './pages.service.ts';
import { siteFor } from './website-access.ts';
import type { WebsiteRole } from './website-roles.ts';

export const BLOG_SLUG = 'blog';
const FIRST_POST = { title: 'Welcome to our blog', slug: 'welcome-to-our-blog' };

export interface BlogSetup {
  created: boolean;
  blogPage: PageView;
  posts: PageView[];
}

const text = (content: string): DesignComponent => ({ type: 'textnode', content });
const el = (tagName: string, classes: string[], children: DesignComponent[], extra: Partial<DesignComponent> = {}): DesignComponent => ({
  type: tagName === 'a' ? 'link' : 'text',
  tagName,
  classes,
  components: children,
  ...extra,
});
const link = (href: string, label: string, classes: string[]) => el('a', classes, [text(label)], { attributes: { href } });

const STYLES: DesignDocument['styles'] = [
  { selectors: ['blog-listing'], style: { 'max-width': '48rem', margin: '0 auto', padding: '3rem 1rem' } },
  { selectors: ['blog-post-card'], style: { 'border-bottom': '1px solid #e5e5e5', padding: '1.5rem 0' } },
  { selectors: ['blog-post'], style: { 'max-width': '42rem', margin: '0 auto', padding: '3rem 1rem', 'line-height': '1.6' } },
  { selectors: ['blog-back'], style: { display: 'inline-block', 'margin-top': '2rem' } },
];

/**
 * The blog page: a heading, an introduction and a listing section with one card per post (the
 * first post's for now; editors add cards as they add posts). Links are relative to the site, so
 * they work under /sites/{slug}/ and on a custom domain alike.
 */
function listingDesign(siteName: string, postHref: string): DesignDocument {
  return {
    components: [
      el('section', ['blog-listing'], [
        el('h1', [], [text('Blog')]),
        el('p', ['blog-intro'], [text(`News and stories from ${siteName}.`)]),
        el('div', ['blog-posts'], [
          el('article', ['blog-post-card'], [
            el('h2', [], [link(postHref, FIRST_POST.title, [])]),
            el('p', [], [text('A first post, to show how posts look. Edit it, or write your own and add a card for it here.')]),
            link(postHref, 'Read more', ['blog-read-more']),
          ]),
        ], { attributes: { 'data-blog-listing': 'true' } }),
      ]),
    ],
    styles: STYLES,
  };
}

function postDesign(blogHref: string): DesignDocument {
  return {
    components: [
      el('article', ['blog-post'], [
        el('h1', [], [text(FIRST_POST.title)]),
        el('p', [], [text('This is the first post of the blog. A post is a page under the blog page: add one with its title, write it, and publish it when it is ready.')]),
        el('p', [], [text('Replace this text with your own, or delete the post once you have written others.')]),
        link(blogHref, '← All posts', ['blog-back']),
      ]),
    ],
    styles: STYLES,
  };
}

/** A design made here, checked like any other (ids given); a problem is a defect of this file. */
function checked(design: DesignDocument): DesignDocument {
  const { design: parsed, details } = parseDesign(design, 'design');
  if (details.length) throw new Error(`the default blog design is not valid: ${JSON.stringify(details)}`);
  return parsed;
}

function views(site: Website, role: WebsiteRole, tree: PageTree, pages: WebsitePage[]): PageView[] {
  return pages.map((page) => ({ page, site, role, path: tree.path(page.id), parentSimplyId: page.parentId === null ? null : (tree.byId.get(page.parentId)?.simplyId ?? null) }));
}

export async function setupBlog(ctx: RequestContext, websiteSimplyId: string): Promise<BlogSetup> {
  return runTransaction(ctx.services.prisma, async (tx) => {
    const { site, role } = await siteFor(ctx, tx, websiteSimplyId, 'EDITOR', { lock: true });
    let blog = await tx.websitePage.findFirst({ where: { teamId: site.teamId, websiteId: site.id, parentId: null, slug: BLOG_SLUG } });
    const created = blog === null;
    if (!blog) {
      const tree = await PageTree.load(tx, site.teamId, site.id);
      // the first page of a site becomes its home page, served at "/": links from the listing are relative to where it is served
      const blogIsHome = tree.pages.length === 0;
      blog = await insertPage(ctx, tx, site, { title: 'Blog', slug: BLOG_SLUG, parentId: null, design: checked(listingDesign(site.name, `${BLOG_SLUG}/${FIRST_POST.slug}`)), field: 'websiteSimplyId' });
      await insertPage(ctx, tx, site, { title: FIRST_POST.title, slug: FIRST_POST.slug, parentId: blog.id, design: checked(postDesign(blogIsHome ? '../' : `../${BLOG_SLUG}`)), field: 'websiteSimplyId' });
    }
    const tree = await PageTree.load(tx, site.teamId, site.id);
    const posts = await tx.websitePage.findMany({ where: { teamId: site.teamId, websiteId: site.id, parentId: blog.id }, orderBy: [{ position: 'asc' }, { id: 'asc' }] });
    return { created, blogPage: views(site, role, tree, [blog])[0]!, posts: views(site, role, tree, posts) };
  });
}
