// Identifier of saved layouts (docs/api/websites.md "Saved layouts").
import { idKind } from '../../app/ids.ts';

/** a saved layout of a website (`wsl-XXXX-XXXX-XXXX`), the savedLayoutSimplyId */
export const websiteSavedLayoutId = idKind('wsl', 'website saved layout');
