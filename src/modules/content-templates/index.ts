// The public API of the content-templates area: all another area may import from it (test/app/module-structure.test.ts).
// Its manifest is module.ts; every other file of the folder is private to the area.
export { contentTemplateId } from './content-templates.ids.ts';
export { findTemplate } from './content-templates.service.ts';
// the one sanitizer of stored designs, and when a filled-in design must pass it again (message template authoring uses both)
export { sanitizeDesignHtml } from './design-sanitizer.ts';
export { documentSettingsInput } from './document-settings.input.ts';
export { lineageOf } from './template-access.ts';
export { needsResanitizing, previewRender } from './template-preview.ts';
export { assess } from './template-readiness.ts';
// the conversation composer's canned responses (the conversations area lists and uses them)
export { cannedResponsePage, type CannedResponseRow, findCannedResponse } from './canned-responses.sql.ts';
