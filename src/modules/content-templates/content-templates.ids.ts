// Identifiers of the content-templates area.
import { idKind } from '../../app/ids.ts';

export const contentTemplateId = idKind('ctpl', 'content template');
