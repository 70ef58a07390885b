// The text of a FORM message: what the person answered in a wizard's external form, one line per
// field in the wizard's order ("Field name: value"), as plain TEXT. Nothing of it is markup: the
// message is stored and answered as TEXT, so whatever a person typed is the characters they typed
// to every reader. Only the fields the form collected and the person sent are shown (never another
// value of the record), and a field the team hides from some of its roles (field permission NONE)
// is left out: the message is read by everyone who reads the conversation, whatever their role.
import { encodeRecordFields, toDisplayText, type FieldDefinition } from '../../kernel/index.ts';
import type { WizardConfig } from '../wizards/index.ts';
import { CONVERSATION_LIMITS } from './conversations.input.ts';

/** what one answer may take of the message */
const MAX_ANSWER = 2_000;

/** A localized title in English, else its first language (wizard and field titles are the team's own words). */
export function titleText(text: unknown): string {
  if (typeof text === 'string') return text;
  if (!text || typeof text !== 'object') return '';
  const texts = text as Record<string, unknown>;
  const pick = texts.en ?? Object.values(texts)[0];
  return typeof pick === 'string' ? pick : '';
}

/** One line of text: no control characters, spaces collapsed. */
export function oneLine(text: string, max: number): string {
  const line = text.replace(/[\p{Cc}\p{Cf}\u2028\u2029]+/gu, ' ').replace(/\s+/g, ' ').trim();
  return [...line].length > max ? `${[...line].slice(0, max - 1).join('')}…` : line;
}

/** A value as text: control characters but line breaks and tabs dropped, at most MAX_ANSWER characters. */
function answerText(text: string): string {
  const clean = text.replace(/\r\n?/g, '\n').replace(/[^\P{Cc}\n\t]|[\p{Cf}\u2028\u2029]/gu, '').trim();
  return [...clean].length > MAX_ANSWER ? `${[...clean].slice(0, MAX_ANSWER - 1).join('')}…` : clean;
}

/** The fields a run of the wizard collects (UPDATE_DATA_RECORD tasks), each once, in the wizard's order. */
export function collectedFields(config: WizardConfig): FieldDefinition[] {
  const seen = new Map<string, FieldDefinition>();
  for (const step of config.steps) {
    for (const task of step.tasks) {
      if (task.type !== 'UPDATE_DATA_RECORD') continue;
      for (const { field } of task.fields) if (!seen.has(field.dataFieldSimplyId)) seen.set(field.dataFieldSimplyId, field);
    }
  }
  return [...seen.values()];
}

export interface FormAnswers {
  /** the message's content (TEXT) */
  content: string;
  /** answers shown, and answers left out because the team hides their field from some roles */
  shown: number;
  hidden: number;
}

/**
 * The message for a run's `formData`: each field the form collected that the person sent, as the
 * value the run stored shows as text (an emptied field reads "(cleared)").
 */
export function formAnswers(config: WizardConfig, formData: Record<string, unknown>, hiddenFields: ReadonlySet<string>): FormAnswers {
  const fields = collectedFields(config).filter((f) => Object.hasOwn(formData, f.dataFieldSimplyId));
  const visible = fields.filter((f) => !hiddenFields.has(f.dataFieldSimplyId));
  // the values as the run stored them (the run succeeded, so they encode)
  const encoded = encodeRecordFields(visible, Object.fromEntries(visible.map((f) => [f.dataFieldSimplyId, formData[f.dataFieldSimplyId]])), { mode: 'update' });
  const lines = [`Submitted through the form "${oneLine(titleText(config.row.name), 200) || config.row.simplyId}":`, ''];
  for (const field of visible) {
    const label = oneLine(titleText(field.title), 200) || field.columnName;
    const stored = encoded.values[field.dataFieldSimplyId];
    const raw = formData[field.dataFieldSimplyId];
    // plain text keeps its line breaks (the display text is one line); other types read as the record shows them
    const shown = stored === undefined ? (typeof raw === 'string' ? raw : (JSON.stringify(raw) ?? '')) : field.dataType === 'PLAIN_TEXT' && typeof stored === 'string' ? stored : toDisplayText(field, stored);
    const text = answerText(shown);
    if (text === '') lines.push(`${label}: (cleared)`);
    else if (text.includes('\n')) lines.push(`${label}:`, ...text.split('\n').map((l) => `  ${l}`));
    else lines.push(`${label}: ${text}`);
  }
  const hidden = fields.length - visible.length;
  if (visible.length === 0) lines.push('(no answers to show)');
  if (hidden > 0) lines.push('', `${hidden === 1 ? '1 answer is' : `${hidden} answers are`} not shown: the team hides ${hidden === 1 ? 'its field' : 'their fields'} from some roles. Read ${hidden === 1 ? 'it' : 'them'} on the record.`);
  let content = lines.join('\n');
  if ([...content].length > CONVERSATION_LIMITS.content) content = `${[...content].slice(0, CONVERSATION_LIMITS.content - 1).join('')}…`;
  return { content, shown: visible.length, hidden };
}
