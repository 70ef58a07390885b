// Identifiers of the credentials area. Session tokens use `sess_<24>` ids (src/app/ids.ts), not a prefixed kind.
import { idKind } from '../../app/ids.ts';

export const apiKeyId = idKind('key', 'API key');
