// The public API of the merge-tags area: all another area may import from it (test/app/module-structure.test.ts).
// Its manifest is module.ts; every other file of the folder is private to the area.
export { escapeHtml, type MergeContext, type MergeField, type MergeRecord, renderTemplate, textsAroundTags, unknownTags, UNSUBSCRIBE_URL_TAG } from './render.ts';
export { parseTemplate, tagsOf } from './template.ts';
