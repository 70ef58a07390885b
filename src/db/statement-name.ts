// Names for prepared statements whose text is built at run time from a small set of shapes (the
// sort orders of a record page): the same text always gets the same name, so node-postgres
// prepares it once per connection and PostgreSQL reuses its plan. Only texts from a bounded set
// may be named: each name stays prepared on every connection that ran it.
import { createHash } from 'node:crypto';

const names = new Map<string, string>();
const MAX_REMEMBERED = 1000;

export function statementName(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    name = `svc_${createHash('sha256').update(text).digest('base64url').slice(0, 22)}`;
    // only the memo is bounded: a name is a pure function of the text
    if (names.size < MAX_REMEMBERED) names.set(text, name);
  }
  return name;
}
