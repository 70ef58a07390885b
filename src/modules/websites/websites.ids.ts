// Identifiers of the websites area.
import { idKind } from '../../app/ids.ts';

/** a website (`web-XXXX-XXXX-XXXX`), the websiteSimplyId */
export const websiteId = idKind('web', 'website');
/** a page of a website (`wpg-XXXX-XXXX-XXXX`), the pageSimplyId */
export const websitePageId = idKind('wpg', 'website page');
