// The selections of this area's types that other faces (REST tables, tests) use.
import { fragment, PAGINATION, selection } from '../../app/graphql/fragments.ts';

export const MFA_STATUS = fragment('MfaStatusFields', 'MfaStatus', 'enabled pendingSetup enabledAt recoveryCodesRemaining');

export const MFA_SETUP = fragment('MfaSetupFields', 'MfaSetup', 'secret otpauthUri qrCodeDataUrl');

export const MFA_ENABLED = fragment('MfaEnabledFields', 'MfaEnabled', 'enabled enabledAt recoveryCodes');

export const MFA_COMPLIANCE_MEMBER = fragment(
  'MfaComplianceMemberFields',
  'MfaComplianceMember',
  'userSimplyId teamUserLinkSimplyId email firstName lastName isTeamAdmin mfaEnabled mfaEnabledAt',
);

export const MFA_COMPLIANCE = fragment(
  'MfaComplianceFields',
  'MfaCompliance',
  selection`totals { activeMembers mfaEnabled mfaNotEnabled } nodes { ${MFA_COMPLIANCE_MEMBER} } pagination { ${PAGINATION} }`,
);

export const MFA_RESET = fragment('MfaResetFields', 'MfaReset', 'teamUserLinkSimplyId userSimplyId mfaRemoved');
