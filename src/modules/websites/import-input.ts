// Inputs of the import routes (docs/api/websites.md "Import"), shared by GraphQL (the services
// parse them) and the REST table.
import { z } from 'zod';

export const IMPORT_PAGE_LIMIT = 100;

const sourceUrl = z.string().min(1).max(2048).describe('the address of the site to import: a public http(s) page');

export const discoverInput = z.strictObject({ sourceUrl });

export const TARGET_MODES = ['NEW_WEBSITE', 'EXISTING_WEBSITE'] as const;
export const STYLE_SOURCES = ['EXTRACTED', 'STYLE_KIT', 'EXISTING_WEBSITE'] as const;

export const startImportInput = z
  .strictObject({
    sourceUrl,
    targetMode: z.enum(TARGET_MODES, { message: `must be one of ${TARGET_MODES.join(', ')}` }),
    selectedPages: z
      .array(z.string().min(1).max(2048), { message: 'must be an array of page addresses' })
      .min(1)
      .max(IMPORT_PAGE_LIMIT, `at most ${IMPORT_PAGE_LIMIT} pages an import`)
      .optional()
      .describe('addresses (or paths) of pages of the same site, as discover answers them; default: the source page'),
    existingWebsiteSimplyId: z.string().max(100).optional().describe('EXISTING_WEBSITE: the site the pages are added to'),
    websiteName: z.string().min(1).max(200).optional().describe('NEW_WEBSITE: the new site’s name; default: the source’s title'),
    styleSource: z.enum(STYLE_SOURCES, { message: `must be one of ${STYLE_SOURCES.join(', ')}` }).default('EXTRACTED'),
    teamStyleKitSimplyId: z.string().max(100).optional(),
  })
  .superRefine((v, issues) => {
    if (v.targetMode === 'EXISTING_WEBSITE' && !v.existingWebsiteSimplyId) issues.addIssue({ code: 'custom', path: ['existingWebsiteSimplyId'], message: 'is required with targetMode EXISTING_WEBSITE' });
    if (v.targetMode === 'NEW_WEBSITE' && v.existingWebsiteSimplyId) issues.addIssue({ code: 'custom', path: ['existingWebsiteSimplyId'], message: 'is only for targetMode EXISTING_WEBSITE' });
    if (v.styleSource === 'EXISTING_WEBSITE' && v.targetMode !== 'EXISTING_WEBSITE') issues.addIssue({ code: 'custom', path: ['styleSource'], message: 'EXISTING_WEBSITE needs targetMode EXISTING_WEBSITE' });
    if (v.styleSource === 'STYLE_KIT') issues.addIssue({ code: 'custom', path: ['styleSource'], message: 'STYLE_KIT: style kits are not available on this platform: use EXTRACTED or EXISTING_WEBSITE' });
    else if (v.teamStyleKitSimplyId !== undefined) issues.addIssue({ code: 'custom', path: ['teamStyleKitSimplyId'], message: 'is only for styleSource STYLE_KIT' });
  });
export type StartImportInput = z.infer<typeof startImportInput>;

export const REVIEW_ACTIONS = ['ACCEPT', 'SKIP', 'MODIFY'] as const;

export const reviewImportInput = z.strictObject({
  responses: z
    .array(
      z.strictObject({
        suggestionId: z.string().min(1).max(100),
        action: z.enum(REVIEW_ACTIONS, { message: `must be one of ${REVIEW_ACTIONS.join(', ')}` }),
        modifications: z.record(z.string(), z.unknown()).optional().describe('MODIFY: what to do instead (per kind, docs/api/websites.md "Import")'),
      }),
    )
    .min(1)
    .max(200),
});
export type ReviewImportInput = z.infer<typeof reviewImportInput>;

export const START_EXAMPLE = {
  sourceUrl: 'https://www.friends-of-the-park.org/',
  targetMode: 'NEW_WEBSITE',
  selectedPages: ['https://www.friends-of-the-park.org/', 'https://www.friends-of-the-park.org/about'],
  styleSource: 'EXTRACTED',
};
