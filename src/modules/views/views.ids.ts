// Identifiers of the views area.
import { idKind } from '../../app/ids.ts';

export const dataViewId = idKind('view', 'data view');
