// The selections of the chat widget types that other faces (the REST table, tests) use.
import { fragment } from '../../app/graphql/fragments.ts';

const APPEARANCE = 'appearance { primaryColor textColor title greeting launcherLabel inputPlaceholder position }';

export const CONVERSATION_WIDGET = fragment(
  'ConversationWidgetFields',
  'ConversationWidget',
  `id widgetSimplyId name allowedOrigins ${APPEARANCE} identityVerification identitySecret identitySecretHint identitySecretRotatedAt
   defaultPriority defaultAssignedUserId isEnabled embed { loaderUrl frameUrl snippet } createdAt updatedAt`,
);

const PUBLIC_WIDGET = `widget { widgetSimplyId identityVerification ${APPEARANCE} }`;
const VISITOR = 'visitor { visitorSimplyId isVerified isSimulated name email }';

export const WIDGET_VISITOR_TOKEN = fragment('WidgetVisitorTokenFields', 'WidgetVisitorToken', `token expiresAt visitorSecret ${VISITOR} ${PUBLIC_WIDGET}`);

export const WIDGET_SIMULATION = fragment(
  'WidgetSimulationFields',
  'WidgetSimulation',
  `token expiresAt previewUrl ${VISITOR} ${PUBLIC_WIDGET} conversation { conversationSimplyId status createdAt lastMessageAt }
   messages { messageSimplyId conversationSimplyId author text createdAt }`,
);
