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
/** a review comment on a page (`wcm-XXXX-XXXX-XXXX`), the commentSimplyId */
export const websiteCommentId = idKind('wcm', 'website comment');
/** a reply to a review comment (`wcr-XXXX-XXXX-XXXX`), the replySimplyId */
export const websiteCommentReplyId = idKind('wcr', 'website comment reply');
/** an access area of a website (`waa-XXXX-XXXX-XXXX`), the accessAreaSimplyId */
export const websiteAccessAreaId = idKind('waa', 'website access area');
