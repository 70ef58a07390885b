// Identifiers of the chat widgets (docs/api/conversations.md "Chat widget").
import { idKind } from '../../app/ids.ts';

export const conversationWidgetId = idKind('cwg', 'conversation widget');
export const widgetVisitorId = idKind('cwv', 'widget visitor');
