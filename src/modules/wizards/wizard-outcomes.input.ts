// Bodies of a wizard's outcome operations (docs/api/data-wizards.md "Outcomes"), checked with zod on
// both faces: the REST table uses these schemas for its bodies, the service parses the same ones.
// The shape is checked here (a 400 naming the field); what the automation rules say of an action
// (its type, its settings, the caller's reach) is a blocker of the preview, not a 400.
import { z } from 'zod';
import { automationId } from '../automations/index.ts';

/** An outcome automation: its name holds at most 200 characters and it runs at most 50 actions (the automation limits). */
export const MAX_OUTCOME_NAME = 200;
export const MAX_OUTCOME_ACTIONS = 50;
export const MAX_IDEMPOTENCY_KEY = 64;
export const OUTCOME_ACTION_TYPES = ['UPDATE_FIELDS', 'CREATE_RECORD', 'SEND_EMAIL', 'RUN_WIZARD_STEP', 'SEND_USER_NOTIFICATION', 'CHARGE_PAYMENT'] as const;

/** One action of an outcome, as an automation action is created; the list order is the run order. */
export const outcomeActionInput = z.strictObject({
  actionType: z.string().describe(OUTCOME_ACTION_TYPES.join(', ')),
  actionConfig: z.unknown().optional().describe('the settings of the action type (as for automation actions)'),
  continueOnError: z.boolean().optional().describe('default false'),
  retryConfig: z.unknown().optional().describe('{ maxAttempts 1-5, delaySeconds 0-60 } or null'),
  onFailureActions: z.unknown().optional().describe('[{ actionType, actionConfig }] (at most 5) or null'),
});

/** What one outcome (success or error) should do: a new automation, or the named one changed. */
export const outcomePresetInput = z.strictObject({
  automationSimplyId: z
    .string()
    .regex(automationId.pattern, 'must be an automation simplyId (aut-XXXX-XXXX-XXXX)')
    .nullish()
    .describe("an automation of this outcome to change; absent: a new one is created"),
  name: z.string().trim().min(1, 'must not be empty').max(MAX_OUTCOME_NAME, `at most ${MAX_OUTCOME_NAME} characters`).optional().describe("default: the wizard's name and the outcome (a changed automation keeps its own)"),
  isEnabled: z.boolean().optional().describe('default true (a changed automation keeps its own)'),
  actions: z
    .array(outcomeActionInput)
    .min(1, 'give at least one action')
    .max(MAX_OUTCOME_ACTIONS, `at most ${MAX_OUTCOME_ACTIONS} actions`)
    .describe('in run order; they replace the actions of a changed automation'),
});
export type OutcomePresetInput = z.output<typeof outcomePresetInput>;

export const outcomeConfigurationInput = z
  .strictObject(
    {
      success: outcomePresetInput.nullish().describe('what runs when a run of the wizard completes (WIZARD_COMPLETED); absent or null: unchanged'),
      error: outcomePresetInput.nullish().describe('what runs when a run fails (WIZARD_COMPLETION_FAILED); absent or null: unchanged'),
    },
    { error: 'must be an object { success?, error? }' },
  )
  .refine((c) => (c.success ?? null) !== null || (c.error ?? null) !== null, 'give success, error or both');
export type OutcomeConfigurationInput = z.output<typeof outcomeConfigurationInput>;

export const fingerprintInput = z.string().regex(/^[0-9a-f]{64}$/, 'must be the fingerprint of a preview (64 hexadecimal characters)');

export const idempotencyKeyInput = z
  .string()
  .trim()
  .min(1, 'is required')
  .max(MAX_IDEMPOTENCY_KEY, `at most ${MAX_IDEMPOTENCY_KEY} characters`)
  .describe('one per apply the caller means, normally a UUID');

export const previewInput = z.strictObject({ configuration: outcomeConfigurationInput });

export const applyInput = z.strictObject({
  configuration: outcomeConfigurationInput.describe('the configuration the preview answered (canonical), as reviewed'),
  fingerprint: fingerprintInput.describe("the preview's fingerprint"),
  idempotencyKey: idempotencyKeyInput,
});
export type ApplyInput = z.output<typeof applyInput>;

export const enabledInput = z.strictObject({ isEnabled: z.boolean({ error: 'must be true or false' }) });
