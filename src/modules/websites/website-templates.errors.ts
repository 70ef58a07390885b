// Errors of website templates with their codes (docs/api/websites.md "Errors").
import { ApiError } from '../../app/errors.ts';

/** An archived template makes no new sites and no new releases. */
export class WebsiteTemplateArchivedError extends ApiError {
  constructor(simplyId: string) {
    super(409, 'WEBSITE_TEMPLATE_ARCHIVED', `The template ${simplyId} is archived: it makes no new websites or releases`, { details: [{ field: 'teamWebsiteTemplateSimplyId', message: 'is archived' }] });
  }
}

/** A site made from a template needs a release to copy. */
export class WebsiteTemplateNotReleasedError extends ApiError {
  constructor(simplyId: string) {
    super(409, 'WEBSITE_TEMPLATE_NOT_RELEASED', `The template ${simplyId} has no release yet: release it first`, { details: [{ field: 'teamWebsiteTemplateSimplyId', message: 'has no release' }] });
  }
}

/** Releasing needs the template's source site, which was deleted. */
export class WebsiteTemplateSourceMissingError extends ApiError {
  constructor(simplyId: string) {
    super(409, 'WEBSITE_TEMPLATE_SOURCE_MISSING', `The source website of the template ${simplyId} was deleted: name another one with PUT`, { details: [{ field: 'sourceWebsiteSimplyId', message: 'was deleted' }] });
  }
}

/** apply or disconnect on a site that follows no template. */
export class WebsiteNotFromTemplateError extends ApiError {
  constructor(simplyId: string) {
    super(409, 'WEBSITE_NOT_FROM_TEMPLATE', `The website ${simplyId} is not connected to a template`, { details: [{ field: 'websiteSimplyId', message: 'follows no template' }] });
  }
}

/** apply with nothing to apply: no pending release, or the copy has not finished. */
export class WebsiteTemplateUpToDateError extends ApiError {
  constructor(simplyId: string, copying: boolean) {
    super(409, 'WEBSITE_TEMPLATE_NOTHING_TO_APPLY', copying ? `The website ${simplyId} is still being copied from its template` : `The website ${simplyId} has no pending template release`, {
      details: [{ field: 'pendingReleaseNumber', message: copying ? 'the copy has not finished' : 'is null' }],
    });
  }
}

/** detach on a page that does not follow a template (never did, or already detached). */
export class PageNotFollowingTemplateError extends ApiError {
  constructor(simplyId: string) {
    super(409, 'WEBSITE_PAGE_NOT_FROM_TEMPLATE', `The page ${simplyId} does not follow a template`, { details: [{ field: 'pageSimplyId', message: 'follows no template' }] });
  }
}
