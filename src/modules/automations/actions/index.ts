// Action type → handler.
import type { ActionType } from '../automations.input.ts';
import type { ActionHandler } from './action-run.ts';
import { chargePayment } from './charge-payment.ts';
import { createRecord } from './create-record.ts';
import { runWizardStep } from './run-wizard-step.ts';
import { sendEmail } from './send-email.ts';
import { sendUserNotification } from './send-user-notification.ts';
import { updateFields } from './update-fields.ts';

export const ACTION_HANDLERS: Record<ActionType, ActionHandler> = {
  UPDATE_FIELDS: updateFields,
  CREATE_RECORD: createRecord,
  SEND_EMAIL: sendEmail,
  RUN_WIZARD_STEP: runWizardStep,
  SEND_USER_NOTIFICATION: sendUserNotification,
  CHARGE_PAYMENT: chargePayment,
};
