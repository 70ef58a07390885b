// Public identifiers (simplyIds). Internal numeric ids never leave the server.
// Records and collections: XXXX-XXXX-XXXX. Other resources: `<prefix>-XXXX-XXXX-XXXX`, one
// IdKind per resource, declared by the module that owns it (`<area>.ids.ts`).
// The alphabet drops 0/O, 1/I/L so ids survive being read aloud or retyped.
import { randomBytes } from 'node:crypto';
import { ValidationError } from './errors.ts';

const ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ'; // 31 symbols, unambiguous
const GROUP = `[${ALPHABET}]{4}`;

function randomGroups(groups: number): string {
  const out: string[] = [];
  const bytes = randomBytes(groups * 4 * 2);
  let i = 0;
  for (let g = 0; g < groups; g++) {
    let group = '';
    while (group.length < 4) {
      const byte = bytes[i++ % bytes.length]!;
      // rejection sampling keeps every symbol equally likely
      if (byte < 248) group += ALPHABET[byte % ALPHABET.length];
      else if (i >= bytes.length) return randomGroups(groups);
    }
    out.push(group);
  }
  return out.join('-');
}

const plainPattern = new RegExp(`^${GROUP}-${GROUP}-${GROUP}$`);

/** A record or collection simplyId (no prefix). */
export function newSimplyId(): string {
  return randomGroups(3);
}

export function isSimplyId(value: string): boolean {
  return plainPattern.test(value);
}

export const simplyIdPattern = (): RegExp => plainPattern;

/**
 * One kind of prefixed identifier, declared by the module that mints it (`<area>.ids.ts`):
 * `webhookId.create()`, `webhookId.assert(value, 'webhookSimplyId')`. The module list checks that
 * no two kinds share a prefix.
 */
export interface IdKind {
  readonly prefix: string;
  /** how errors name the resource: "webhook subscription" */
  readonly label: string;
  readonly pattern: RegExp;
  create(): string;
  is(value: string): boolean;
  /** anything but this kind's simplyId (numeric internal ids included) is a 400 naming the field */
  assert(value: string, field: string): void;
}

export function idKind(prefix: string, label: string): IdKind {
  const pattern = new RegExp(`^${prefix}-${GROUP}-${GROUP}-${GROUP}$`);
  return {
    prefix,
    label,
    pattern,
    create: () => `${prefix}-${randomGroups(3)}`,
    is: (value) => pattern.test(value),
    assert(value, field) {
      if (!pattern.test(value)) {
        throw new ValidationError(`${field} must be a ${label} simplyId (${prefix}-XXXX-XXXX-XXXX)`, [{ field, message: 'malformed identifier' }]);
      }
    },
  };
}

/** Random, URL-safe secret material for tokens (256 bits). */
export function randomSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** Records and collections use bare XXXX-XXXX-XXXX ids; anything else (numbers included) is a 400. */
export function assertDataSimplyId(value: string, field: string, label: 'record' | 'collection' = 'record'): void {
  if (!plainPattern.test(value)) {
    throw new ValidationError(`${field} must be a ${label} simplyId (XXXX-XXXX-XXXX)`, [{ field, message: 'malformed identifier' }]);
  }
}

/** The kinds the infrastructure itself reads (team selection, user tokens, memberships). */
export const teamId = idKind('tm', 'team');
export const userId = idKind('usr', 'user');
export const membershipId = idKind('tul', 'team membership');
export const CORE_ID_PREFIXES: readonly string[] = [teamId, userId, membershipId].map((k) => k.prefix);
