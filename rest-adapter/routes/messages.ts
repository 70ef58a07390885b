// /v1/message-templates → src/modules/messages/message-templates.schema.ts
import { defineRoutes } from '../route.ts';

export const messageRoutes = defineRoutes([]);
