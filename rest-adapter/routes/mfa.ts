// /v1/users/me/mfa and /v1/users/mfa → src/modules/mfa/mfa.schema.ts
import { defineRoutes } from '../route.ts';

export const mfaRoutes = defineRoutes([]);
