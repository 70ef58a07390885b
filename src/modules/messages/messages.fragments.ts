// The selections of this area's types that other faces (REST tables, tests) use.
import { fragment } from '../../app/graphql/fragments.ts';

export const MESSAGE_TEMPLATE = fragment('MessageTemplateFields', 'MessageTemplate', 'id name description deliveryMethod subjectLine designFormat archivedAt createdAt updatedAt');
