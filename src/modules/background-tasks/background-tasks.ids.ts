// Identifiers of the background-task area.
import { idKind } from '../../app/ids.ts';

export const backgroundTaskId = idKind('btk', 'background task');
export const backgroundTaskErrorId = idKind('bte', 'background task error');
export const recordTaskLinkId = idKind('rtl', 'record task link');
export const recordOutputId = idKind('rto', 'record task output');
export const outputDefaultId = idKind('tod', 'task output default');
