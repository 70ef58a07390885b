// Who may do what on a website (docs/api/websites.md "Who may call what"). Every route needs
// TEAM_WEBSITES or TEAM_ADMIN_WEBSITES; what the caller may then do on one site is their role there:
//
//   role       may
//   VIEWER     read the site, its pages, designs, versions, comments, backups and activity
//   REVIEWER   and comment, resolve comments, request changes
//   EDITOR     and change pages and designs, checkpoint and restore versions, submit for review,
//              publish pages, take backups, open previews
//   OWNER      and change the site's settings and members, publish its header, footer and campaign
//              chrome, activate and take it offline, restore backups, manage access areas, delete it
//
// The role comes from the caller's permissions and the site's members:
//   team admins and TEAM_ADMIN_WEBSITES at edit level   OWNER on every site
//   TEAM_ADMIN_WEBSITES at view level                   at least VIEWER on every site
//   a member of the site                                their role there
//   TEAM_WEBSITES on a site that is not restricted      EDITOR at edit level, VIEWER at view level
// and the highest applies. With view level only (no edit level of either feature) the role is at
// most REVIEWER, whatever the membership says: the team role is the ceiling.
import { hasFeature, type Principal } from '../../app/auth/principal.ts';

export const WEBSITE_ROLES = ['VIEWER', 'REVIEWER', 'EDITOR', 'OWNER'] as const;
export type WebsiteRole = (typeof WEBSITE_ROLES)[number];

export const SITE_FEATURE = 'TEAM_WEBSITES';
export const ADMIN_FEATURE = 'TEAM_ADMIN_WEBSITES';

const rank = (role: WebsiteRole | null): number => (role === null ? -1 : WEBSITE_ROLES.indexOf(role));

export function atLeast(role: WebsiteRole | null, needed: WebsiteRole): boolean {
  return rank(role) >= rank(needed);
}

const highest = (...roles: (WebsiteRole | null)[]): WebsiteRole | null => roles.reduce((a, b) => (rank(b) > rank(a) ? b : a), null);

/** Whether the caller may use websites at all, and create sites (edit level). */
export function websitesFeature(p: Principal): 'EDIT' | 'VIEW' | null {
  if (hasFeature(p, ADMIN_FEATURE, 'EDIT') || hasFeature(p, SITE_FEATURE, 'EDIT')) return 'EDIT';
  if (hasFeature(p, ADMIN_FEATURE, 'VIEW') || hasFeature(p, SITE_FEATURE, 'VIEW')) return 'VIEW';
  return null;
}

/** The caller's role on a site with these facts (null: the site is not theirs to see). */
export function effectiveRole(p: Principal, site: { restricted: boolean }, memberRole: WebsiteRole | null): WebsiteRole | null {
  const level = websitesFeature(p);
  if (level === null) return null;
  const fromAdmin = hasFeature(p, ADMIN_FEATURE, 'EDIT') ? 'OWNER' : hasFeature(p, ADMIN_FEATURE, 'VIEW') ? 'VIEWER' : null;
  const fromTeam = site.restricted ? null : hasFeature(p, SITE_FEATURE, 'EDIT') ? 'EDITOR' : hasFeature(p, SITE_FEATURE, 'VIEW') ? 'VIEWER' : null;
  const role = highest(fromAdmin, fromTeam, memberRole);
  if (role === null) return null;
  return level === 'VIEW' && rank(role) > rank('REVIEWER') ? 'REVIEWER' : role;
}
