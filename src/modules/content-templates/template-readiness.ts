// Whether a template is ready to be used, as a list of graded issues: BLOCKING (it cannot be used
// as it is: a document-backed signing request refuses it), WARNING (it works, but probably not as
// meant), INFO (worth knowing). Nothing is changed by asking.
import type { ContentTemplate } from '../../generated/prisma/client.ts';
import type { RequestContext } from '../../app/context.ts';
import { tagsOf, unknownTags } from '../merge-tags/index.ts';
import type { TeamSchema } from '../../kernel/index.ts';
import { findTemplate } from './content-templates.service.ts';
import { documentSettingsInput, pageDimensions } from './document-settings.input.ts';

export type Severity = 'BLOCKING' | 'WARNING' | 'INFO';

export interface ReadinessIssue {
  severity: Severity;
  code: string;
  message: string;
  field: string | null;
}

export interface Readiness {
  contentTemplateSimplyId: string;
  /** no BLOCKING issue */
  ready: boolean;
  issues: ReadinessIssue[];
}

/** The least room a page must leave for content, across and down, in millimetres. */
export const MIN_CONTENT_MM = 20;
/** Below this a header or footer drawn in its margin has no room. */
export const MIN_HEADER_MARGIN_MM = 10;

const ORDER: Record<Severity, number> = { BLOCKING: 0, WARNING: 1, INFO: 2 };

/** The texts merge tags are read from, by the field they are in. */
function texts(row: ContentTemplate, settings: { headerHtml: string | null; footerHtml: string | null } | null): [string, string][] {
  const out: [string, string][] = [];
  if (row.textContent) out.push(['textContent', row.textContent]);
  if (row.designHtml) out.push(['designHtml', row.designHtml]);
  if (settings?.headerHtml) out.push(['documentSettings.headerHtml', settings.headerHtml]);
  if (settings?.footerHtml) out.push(['documentSettings.footerHtml', settings.footerHtml]);
  return out;
}

export function assess(row: ContentTemplate, schema: TeamSchema): ReadinessIssue[] {
  const issues: ReadinessIssue[] = [];
  const add = (severity: Severity, code: string, message: string, field: string | null = null) => issues.push({ severity, code, message, field });
  const document = row.kind === 'DOCUMENT';
  if (row.archivedAt) add('BLOCKING', 'ARCHIVED', 'The template is archived: new uses are refused (existing ones keep working)');
  if (!row.textContent?.trim() && !row.designHtml?.trim()) add('BLOCKING', 'NO_CONTENT', 'The template has neither textContent nor a design (designHtml)', 'textContent');
  if (row.designJson !== null && row.designHtml === null) add('WARNING', 'DESIGN_WITHOUT_HTML', 'The design has no HTML (designHtml): the text content is used instead', 'designHtml');

  let settings: { headerHtml: string | null; footerHtml: string | null } | null = null;
  if (row.documentSettings === null) {
    if (document) add('BLOCKING', 'MISSING_DOCUMENT_SETTINGS', 'A document template needs documentSettings (page size, orientation, margins)', 'documentSettings');
  } else {
    const parsed = documentSettingsInput.safeParse(row.documentSettings);
    if (!parsed.success) {
      const first = parsed.error.issues[0];
      add('BLOCKING', 'INVALID_DOCUMENT_SETTINGS', `documentSettings are not valid: ${first?.path.join('.') || 'value'} ${first?.message ?? ''}`.trim(), `documentSettings.${first?.path.join('.') ?? ''}`.replace(/\.$/, ''));
    } else {
      settings = parsed.data;
      const page = pageDimensions(parsed.data);
      const m = parsed.data.marginsMm;
      const width = page.width - m.left - m.right;
      const height = page.height - m.top - m.bottom;
      if (width < MIN_CONTENT_MM || height < MIN_CONTENT_MM) {
        add('BLOCKING', 'PAGE_MARGINS_TOO_LARGE', `The margins leave ${Math.max(0, width).toFixed(1)} × ${Math.max(0, height).toFixed(1)} mm for content; at least ${MIN_CONTENT_MM} mm each way is needed`, 'documentSettings.marginsMm');
      }
      if (parsed.data.headerHtml && m.top < MIN_HEADER_MARGIN_MM) add('WARNING', 'HEADER_WITHOUT_ROOM', `The header is drawn in the top margin, which is under ${MIN_HEADER_MARGIN_MM} mm`, 'documentSettings.marginsMm.top');
      if (parsed.data.footerHtml && m.bottom < MIN_HEADER_MARGIN_MM) add('WARNING', 'FOOTER_WITHOUT_ROOM', `The footer is drawn in the bottom margin, which is under ${MIN_HEADER_MARGIN_MM} mm`, 'documentSettings.marginsMm.bottom');
    }
  }

  if (document) {
    const collection = row.dataCollectionId === null ? undefined : schema.collectionsById.get(row.dataCollectionId);
    if (!collection) add('BLOCKING', 'COLLECTION_MISSING', 'The collection of this document template no longer exists', 'dataCollectionSimplyId');
    else {
      if (collection.isArchived) add('WARNING', 'COLLECTION_ARCHIVED', `The template's collection ${collection.simplyId} is archived`, 'dataCollectionSimplyId');
      const fields = schema.fieldsOf(collection);
      for (const [field, text] of texts(row, settings)) {
        const unknown = unknownTags(text, fields);
        if (unknown.length > 0) {
          add('WARNING', 'UNKNOWN_MERGE_TAGS', `Merge tags that name no field of collection ${collection.simplyId} (they render empty): ${unknown.map((t) => `{{${t}}}`).join(', ')}`, field);
        }
      }
    }
  } else {
    const tags = [...new Set(texts(row, settings).flatMap(([, text]) => tagsOf(text)))];
    if (tags.length > 0) add('INFO', 'MERGE_TAGS_UNCHECKED', `Merge tags are filled from each recipient's record when sent; a tag its collection lacks renders empty: ${tags.map((t) => `{{${t}}}`).join(', ')}`);
    if (row.deliveryMethod === 'SMS' && (row.designHtml !== null || row.designJson !== null)) add('INFO', 'SMS_SENDS_TEXT_ONLY', 'An SMS carries the text content only; the design is not sent', 'designHtml');
  }
  return issues.sort((a, b) => ORDER[a.severity] - ORDER[b.severity]);
}

export async function templateReadiness(ctx: RequestContext, simplyId: string): Promise<Readiness> {
  const { row, schema } = await findTemplate(ctx, simplyId, 'VIEW');
  const issues = assess(row, schema);
  return { contentTemplateSimplyId: row.simplyId, ready: !issues.some((i) => i.severity === 'BLOCKING'), issues };
}
