// Errors of the websites area with their codes (docs/api/websites.md "Errors").
import { ApiError } from '../../app/errors.ts';
import type { WebsiteRole } from './website-roles.ts';

/** The caller sees the site but their role there does not reach the operation. */
export class WebsiteRoleRequiredError extends ApiError {
  constructor(needed: WebsiteRole, has: WebsiteRole) {
    super(403, 'WEBSITE_ROLE_REQUIRED', `This needs the ${needed} role on the website (or higher); yours is ${has}`, { details: [{ field: 'role', message: `needs ${needed}` }] });
  }
}

/** A slug another website (of any team) already has: a state of the platform, so 409. */
export class WebsiteSlugTakenError extends ApiError {
  constructor(slug: string) {
    super(409, 'WEBSITE_SLUG_TAKEN', `The website address "${slug}" is taken: choose another slug`, { details: [{ field: 'slug', message: 'is taken' }] });
  }
}

/** A sibling page already has the path segment. */
export class PagePathTakenError extends ApiError {
  constructor(path: string) {
    super(409, 'WEBSITE_PAGE_PATH_TAKEN', `Another page of the website already has the path /${path}`, { details: [{ field: 'slug', message: 'is taken by a sibling page' }] });
  }
}

/** A custom domain another website (of any team) already serves. */
export class WebsiteDomainTakenError extends ApiError {
  constructor(domain: string) {
    super(409, 'WEBSITE_DOMAIN_TAKEN', `Another website already uses the domain ${domain}`, { details: [{ field: 'customDomain', message: 'is used by another website' }] });
  }
}
