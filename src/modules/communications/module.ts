// Communication history: the canonical, safe record of every delivery the platform made to a
// constituent, whatever sent it, and the reads of it (integration-safe list, protected snapshot).
import { defineModule } from '../../app/module.ts';
import * as communicationsSchema from './communications.schema.ts';
import { deliveryId } from './communications.ids.ts';

export const communicationsModule = defineModule({
  name: 'communications',
  description: 'The communication history of constituents: one safe row per delivery, from any source.',
  schema: { communicationsSchema },
  ids: [deliveryId],
});
