// Identifiers of team website templates and their releases (docs/api/websites.md "Templates").
import { idKind } from '../../app/ids.ts';

/** a team website template (`wtp-XXXX-XXXX-XXXX`), the teamWebsiteTemplateSimplyId */
export const websiteTemplateId = idKind('wtp', 'team website template');
/** one numbered release of a template (`wtr-XXXX-XXXX-XXXX`) */
export const websiteTemplateReleaseId = idKind('wtr', 'website template release');
