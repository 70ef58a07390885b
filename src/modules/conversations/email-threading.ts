// Which conversation an inbound mail joins (docs/api/conversations.md "Threading"), for one team:
//
//   1. a reply address of the team, when the sender is that conversation's contact (its
//      visitor email, or the visitor email of the conversation it was merged into): that
//      conversation's live end (merges followed)
//   2. In-Reply-To, then References: the latest email of the team (either way) with one of those
//      Message-IDs whose contact is the sender: its conversation's live end
//   3. none (null): the mail starts a new conversation
//
// The contact check is what keeps two people's messages apart: a reply to a newsletter, to a
// forwarded thread, or from someone a reply address was passed on to names another contact's mail
// and so starts the sender's own conversation. The cost of a false split (a visitor writing from a
// second address) is a new conversation an agent can merge; a false join would show one person's
// words in another's thread, which is why it is never risked.
import { targetOfHeaders, type ThreadTarget } from './email.sql.ts';
import type { Db } from './sql-helpers.ts';

/** The most Message-IDs of References consulted (the latest ones: a long thread's tail names the recent mails). */
const MAX_LOOKUP_IDS = 50;

export interface Recipients {
  teamId: bigint;
  teamSimplyId: string;
  /** the conversations the mail's reply addresses (of this team) name */
  replyTargets: ThreadTarget[];
}

/**
 * The Message-IDs a mail names, In-Reply-To first then References newest first, each `<…>`, once.
 * Clients that mangle the headers (brackets dropped, commas between ids, folded oddly) are read
 * leniently: bare `local@domain` words count as ids.
 */
export function referencedIds(inReplyTo: string | undefined, references: string | string[] | undefined): string[] {
  const ids: string[] = [];
  const read = (value: string) => {
    const bracketed = value.match(/<[^<>\s]+>/g);
    const found = bracketed ?? value.split(/[\s,]+/).filter((w) => /^[^\s@<>]+@[^\s@<>]+$/.test(w)).map((w) => `<${w}>`);
    return found.filter((id) => id.length <= 250);
  };
  if (inReplyTo) ids.push(...read(inReplyTo));
  const refs = (Array.isArray(references) ? references : references ? [references] : []).flatMap(read);
  ids.push(...refs.reverse());
  return [...new Set(ids)].slice(0, MAX_LOOKUP_IDS);
}

export async function chooseThread(db: Db, recipients: Recipients, from: string, references: readonly string[]): Promise<bigint | null> {
  const byAddress = recipients.replyTargets.find((t) => t.namedVisitorEmailKey === from || t.liveVisitorEmailKey === from);
  if (byAddress) return byAddress.liveId;
  const byHeaders = await targetOfHeaders(db, recipients.teamId, references, from);
  return byHeaders?.liveId ?? null;
}
