// What an import leaves for people to decide (docs/api/websites.md "Import"): suggestions, each
// answered once with ACCEPT, SKIP or MODIFY, and the components of the drafts they are about.
export const SUGGESTION_KINDS = ['FORM_TO_WIZARD', 'MISSING_IMAGES', 'STYLE_CONFLICTS', 'PAGE_TRUNCATED'] as const;
export type SuggestionKind = (typeof SUGGESTION_KINDS)[number];

export interface Suggestion {
  suggestionId: string;
  kind: SuggestionKind;
  message: string;
  pageSimplyId: string | null;
  /** OPEN until answered, then ACCEPTED, SKIPPED or MODIFIED */
  status: 'OPEN' | 'ACCEPTED' | 'SKIPPED' | 'MODIFIED';
  modifications?: Record<string, unknown>;
}

/** the components the import made that suggestions are about, by page */
export interface ImportMarkers {
  /** form placeholders */
  forms: Record<string, string[]>;
  /** placeholders of images that could not be brought in */
  missingImages: Record<string, string[]>;
  /** pages given extracted style rules */
  styledPages: string[];
}
