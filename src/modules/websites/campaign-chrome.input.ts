// Campaign chrome, version 2 (Document 3 §2.1, §9): a site's banners and popups, `{ version: 2,
// popups: [...] }` with at most ten entries. Version 1 is refused. The structural rules are here;
// content sanitizing and page references are checked by the service (campaign-chrome.ts).
import { z } from 'zod';
import { localizedTextSchema } from '../../app/localized-text.ts';

export const CHROME_LIMITS = { popups: 10, html: 20_000, name: 200, pages: 200 } as const;
export const POPUP_TYPES = ['BANNER', 'MODAL', 'SLIDE_IN', 'CONVERSATION'] as const;
/** the popup types that may carry a connected wizard or newsletter sign-up */
export const CONNECTED_TYPES: ReadonlySet<string> = new Set(['MODAL', 'SLIDE_IN']);
export const TRIGGERS = ['ON_LOAD', 'AFTER_SECONDS', 'ON_SCROLL_PERCENT', 'ON_EXIT_INTENT'] as const;

const pageRef = z.string({ message: 'must be a page simplyId' }).regex(/^wpg-[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}$/, 'must be a page simplyId (wpg-XXXX-XXXX-XXXX)');

const popup = z
  .strictObject({
    id: z.string({ message: 'must be a string' }).regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1-64 letters, digits, _ or -'),
    type: z.enum(POPUP_TYPES, { message: `must be one of ${POPUP_TYPES.join(', ')}` }),
    enabled: z.boolean({ message: 'must be true or false' }),
    name: z.string().trim().max(CHROME_LIMITS.name).optional(),
    /** what assistive technology announces: required, and non-blank in each language, when enabled */
    accessibleLabel: localizedTextSchema.optional(),
    /** the entry's content as HTML; sanitized on the way in, and must keep visible text when enabled */
    html: z.string({ message: 'must be a string' }).max(CHROME_LIMITS.html, `at most ${CHROME_LIMITS.html} characters`).optional(),
    connectedComponent: z
      .discriminatedUnion('kind', [
        z.strictObject({ kind: z.literal('WIZARD'), dataWizardSimplyId: z.string({ message: 'must be a wizard simplyId' }).regex(/^wiz-[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}$/, 'must be a wizard simplyId (wiz-XXXX-XXXX-XXXX)') }),
        z.strictObject({ kind: z.literal('NEWSLETTER'), listName: z.string().trim().min(1).max(200) }),
      ], { message: 'must be a WIZARD or NEWSLETTER component' })
      .optional(),
    trigger: z
      .strictObject({ kind: z.enum(TRIGGERS, { message: `must be one of ${TRIGGERS.join(', ')}` }), value: z.number().int().min(0).max(3600).optional() })
      .optional(),
    /** the pages it shows on; absent: every page */
    pageSimplyIds: z.array(pageRef).max(CHROME_LIMITS.pages).optional(),
    startsAt: z.iso.datetime({ offset: true, message: 'must be an ISO date-time' }).optional(),
    endsAt: z.iso.datetime({ offset: true, message: 'must be an ISO date-time' }).optional(),
  })
  .superRefine((p, ctx) => {
    if (p.connectedComponent && !CONNECTED_TYPES.has(p.type)) {
      ctx.addIssue({ code: 'custom', path: ['connectedComponent'], message: `connected components are allowed in MODAL and SLIDE_IN entries only, not ${p.type}` });
    }
    if (p.startsAt && p.endsAt && Date.parse(p.endsAt) <= Date.parse(p.startsAt)) ctx.addIssue({ code: 'custom', path: ['endsAt'], message: 'must be after startsAt' });
    if (!p.enabled) return;
    const labels = p.accessibleLabel === undefined ? [] : typeof p.accessibleLabel === 'string' ? [p.accessibleLabel] : Object.values(p.accessibleLabel);
    if (labels.length === 0 || labels.some((l) => l.trim() === '')) ctx.addIssue({ code: 'custom', path: ['accessibleLabel'], message: 'an enabled entry needs an accessible label in every language it has' });
    if (p.type !== 'CONVERSATION' && !p.html && !p.connectedComponent) ctx.addIssue({ code: 'custom', path: ['html'], message: 'an enabled entry needs content' });
  });

export const campaignChromeInput = z.strictObject({
  version: z.literal(2, { message: 'must be 2: version 1 campaign chrome is not accepted' }),
  popups: z
    .array(popup)
    .max(CHROME_LIMITS.popups, `at most ${CHROME_LIMITS.popups} entries`)
    .refine((popups) => new Set(popups.map((p) => p.id)).size === popups.length, 'entry ids must differ'),
});
export type CampaignChromeInput = z.infer<typeof campaignChromeInput>;
export type CampaignPopup = CampaignChromeInput['popups'][number];
