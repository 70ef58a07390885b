// Transaction-scoped advisory locks: a namespace per purpose, all listed here so two purposes can
// never wait on each other's keys. The key within a namespace is hashed text (a team, a collection).
// Held until the transaction ends; `shared` holders do not wait for each other, only for `exclusive`.

export const LOCK_NAMESPACES = {
  /** one team's schema versions (schema-write.ts) */
  schemaVersions: 73_021,
  /** one SMART collection's memberships: a full resync is exclusive, record-level syncs are shared */
  smartMemberships: 73_022,
  /** one team's webhook subscription creates (the per-team limit) */
  webhookSubscriptions: 73_024,
  /** the record-count repair (one at a time) */
  recordCountRepair: 73_023,
} as const;

export type LockNamespace = keyof typeof LOCK_NAMESPACES;

/** The statement taking the lock, for pg (`db.query(text, values)`) or Prisma (`$executeRawUnsafe(text, ...values)`). */
export function advisoryLock(namespace: LockNamespace, key: string, mode: 'exclusive' | 'shared' = 'exclusive'): { text: string; values: [number, string] } {
  const fn = mode === 'shared' ? 'pg_advisory_xact_lock_shared' : 'pg_advisory_xact_lock';
  return { text: `SELECT ${fn}($1::int, hashtext($2))`, values: [LOCK_NAMESPACES[namespace], key] };
}
