// Which subscribers would get the very same result for the same event: those whose principal
// grants the same things. The fingerprint holds everything an authorization rule reads (kind,
// team, admin flags, role, data grants, features, OAuth scopes) and leaves out who the caller is,
// except for principals whose access depends on their identity (constituents, public links,
// automations), which never share.
import type { Principal } from '../auth/principal.ts';

const ROLE_BASED_KINDS = new Set<Principal['kind']>(['API_KEY', 'SESSION_TOKEN', 'USER', 'OAUTH']);

// principals come from the credential cache: one object per credential while it stays valid
const fingerprints = new WeakMap<Principal, string>();

export function permissionFingerprint(p: Principal): string {
  let fingerprint = fingerprints.get(p);
  if (fingerprint === undefined) {
    fingerprint = JSON.stringify([
      p.kind,
      ROLE_BASED_KINDS.has(p.kind) ? null : [p.credentialId, p.userSimplyId, p.automation?.automationSimplyId ?? null],
      p.team ? String(p.team.id) : null,
      p.teamError?.code ?? null,
      p.isSystemAdmin,
      p.isTeamAdmin,
      p.teamRoleSimplyId,
      p.data && [p.data.full, sorted([...p.data.collections].map(([k, levels]) => `${k}=${[...levels].sort().join('+')}`)), sorted([...p.data.fields].map(([k, v]) => `${k}=${v}`))],
      sorted([...p.features].map(([k, v]) => `${k}=${String(v)}`)),
      p.scopes && sorted([...p.scopes]),
    ]);
    fingerprints.set(p, fingerprint);
  }
  return fingerprint;
}

function sorted(values: string[]): string[] {
  return values.sort();
}
