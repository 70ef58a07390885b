// Transaction-scoped advisory locks: a namespace per purpose, all listed here so two purposes can
// never wait on each other's keys. The key within a namespace is hashed text (a team, a collection).
// Held until the transaction ends; `shared` holders do not wait for each other, only for `exclusive`.

export const LOCK_NAMESPACES = {
  /** one team's schema versions (schema-write.ts) */
  schemaVersions: 73_021,
  /** one SMART collection's memberships: a full resync is exclusive, record-level syncs are shared */
  smartMemberships: 73_022,
  /** the record-count repair (one at a time) */
  recordCountRepair: 73_023,
  /** one team's webhook subscription creates (the per-team limit) */
  webhookSubscriptions: 73_024,
  /** one team's stored bytes: promotions take turns checking and using the storage limit (files) */
  teamFileStorage: 73_025,
  /** one team's folder tree: creates and moves take turns checking it for cycles and depth (files) */
  teamFileFolders: 73_026,
  /** one person's recent visits in one team: records take turns adding and trimming to the bound (users) */
  recentVisits: 73_027,
  /** one team's message senders and mail domains: default moves and domain deletes take turns (messages) */
  messageSenders: 73_028,
  /**
   * one signing request's completion (signing): the one SESSION-level lock of this list, held across
   * the completion's several commits (pg_advisory_lock(namespace, request id), see signing-completion.ts)
   */
  signingCompletion: 73_029,
  /** one team's chat widget creates (the per-team limit; conversations) */
  conversationWidgets: 73_041,
  /** one booking channel's final availability check and claim (space-bookings): no two bookings of its spaces overlap */
  spaceBookingChannels: 73_051,
  /** one team's action-tag resolver domains: adds take turns checking the plan's allowance (action-tags) */
  actionTagDomains: 73_061,
  /** one team's CSV import applies of action tags: one at a time, so an Idempotency-Key is claimed once (action-tags) */
  actionTagCsvImports: 73_062,
} as const;

export type LockNamespace = keyof typeof LOCK_NAMESPACES;

type LockMode = 'exclusive' | 'shared';
const lockFunction = (mode: LockMode) => (mode === 'shared' ? 'pg_advisory_xact_lock_shared' : 'pg_advisory_xact_lock');

/** The statement taking the lock, for pg (`db.query(text, values)`) or Prisma (`$executeRawUnsafe(text, ...values)`). */
export function advisoryLock(namespace: LockNamespace, key: string, mode: LockMode = 'exclusive'): { text: string; values: [number, string] } {
  return { text: `SELECT ${lockFunction(mode)}($1::int, hashtext($2))`, values: [LOCK_NAMESPACES[namespace], key] };
}

/** Several keys of one namespace in one statement, taken in key order (so two holders of overlapping sets cannot deadlock). */
export function advisoryLocks(namespace: LockNamespace, keys: readonly string[], mode: LockMode = 'exclusive'): { text: string; values: [number, string[]] } {
  return {
    text: `SELECT ${lockFunction(mode)}($1::int, hashtext(k)) FROM (SELECT k FROM unnest($2::text[]) AS k ORDER BY k) AS ordered`,
    values: [LOCK_NAMESPACES[namespace], [...new Set(keys)].sort()],
  };
}
