// The navigation model, version 2 (Document 3 §2.1, §9): `{ version: 2, menus: [...] }` with 1-20
// named menus. Page items name pages of the site; the service checks those against the site.
import { z } from 'zod';

export const NAVIGATION_LIMITS = { menus: 20, menuName: 100, items: 100, label: 200, depth: 3 } as const;

type Item = { type: 'PAGE'; pageSimplyId: string; label?: string; children?: Item[] } | { type: 'LINK'; url: string; label: string; openInNewTab?: boolean; children?: Item[] };

const label = z.string({ message: 'must be a string' }).trim().min(1, 'must not be blank').max(NAVIGATION_LIMITS.label, `at most ${NAVIGATION_LIMITS.label} characters`);

const item: z.ZodType<Item> = z.lazy(() =>
  z.discriminatedUnion(
    'type',
    [
      z.strictObject({
        type: z.literal('PAGE'),
        pageSimplyId: z.string({ message: 'must be a page simplyId' }).regex(/^wpg-[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}$/, 'must be a page simplyId (wpg-XXXX-XXXX-XXXX)'),
        label: label.optional(),
        children: z.array(item).max(NAVIGATION_LIMITS.items).optional(),
      }),
      z.strictObject({
        type: z.literal('LINK'),
        url: z
          .string({ message: 'must be a URL' })
          .max(2048)
          .refine((v) => /^(https?:\/\/|\/|#|mailto:|tel:)/i.test(v), 'must be an http(s), relative, #anchor, mailto: or tel: link'),
        label,
        openInNewTab: z.boolean().optional(),
        children: z.array(item).max(NAVIGATION_LIMITS.items).optional(),
      }),
    ],
    { message: 'must be a PAGE or LINK item' },
  ),
);

export const navigationInput = z.strictObject({
  version: z.literal(2, { message: 'must be 2: version 1 navigation is not accepted' }),
  menus: z
    .array(
      z.strictObject({
        name: z.string({ message: 'must be a string' }).trim().min(1, 'must not be blank').max(NAVIGATION_LIMITS.menuName),
        items: z.array(item).max(NAVIGATION_LIMITS.items, `at most ${NAVIGATION_LIMITS.items} items`),
      }),
    )
    .min(1, 'must have at least 1 menu')
    .max(NAVIGATION_LIMITS.menus, `at most ${NAVIGATION_LIMITS.menus} menus`)
    .refine((menus) => new Set(menus.map((m) => m.name.toLowerCase())).size === menus.length, 'menu names must differ'),
});
export type NavigationInput = z.infer<typeof navigationInput>;

/** Every page item's pageSimplyId, with its place for error details. */
export function navigationPageRefs(nav: NavigationInput): { pageSimplyId: string; field: string }[] {
  const refs: { pageSimplyId: string; field: string }[] = [];
  const walk = (items: Item[], at: string) =>
    items.forEach((it, i) => {
      if (it.type === 'PAGE') refs.push({ pageSimplyId: it.pageSimplyId, field: `${at}.${i}.pageSimplyId` });
      if (it.children) walk(it.children, `${at}.${i}.children`);
    });
  nav.menus.forEach((menu, m) => walk(menu.items as Item[], `navigationJson.menus.${m}.items`));
  return refs;
}
