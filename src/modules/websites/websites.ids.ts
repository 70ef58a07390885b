// Identifiers of the websites area.
import { idKind } from '../../app/ids.ts';

/** a website (`web-XXXX-XXXX-XXXX`), the websiteSimplyId */
export const websiteId = idKind('web', 'website');
/** a page of a website (`wpg-XXXX-XXXX-XXXX`), the pageSimplyId */
export const websitePageId = idKind('wpg', 'website page');
/** a version of a page (`wpv-XXXX-XXXX-XXXX`), the versionSimplyId */
export const websitePageVersionId = idKind('wpv', 'website page version');
/** a backup of a website (`wbk-XXXX-XXXX-XXXX`), the websiteBackupSimplyId */
export const websiteBackupId = idKind('wbk', 'website backup');
