// Identifiers of the views area.
import { idKind } from '../../app/ids.ts';

export const dataViewId = idKind('view', 'data view');
/** a display, filter or calendar date field link of a view (one kind for the three link lists) */
export const viewFieldLinkId = idKind('vfl', 'view field link');
