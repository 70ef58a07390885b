// The markup of an external-access link's pages: the form, the answer after a submission, and the
// one page for a link that opens nothing. Every value is escaped here; there is no script at all.
// The policy allows this page's one stylesheet (by its digest) and nothing else: no script, no
// image, no connection, no framing, forms posting only to this origin (the form has no action: it
// posts to the page's own URL, which carries the link's secret).
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { escapeHtml } from '../../app/html-escape.ts';
import { htmlPage, sendHtmlPage } from '../../app/http/link-page.ts';
import type { RunErrorDetail } from './wizard-events.ts';
import { ADDRESS_PARTS, type FormInput, type FormStep, type FormTask, type FormValue, inputName } from './wizard-external-form.ts';

const STYLE = [
  'body{font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;line-height:1.5;color:#1b1b1b}',
  'fieldset{border:1px solid #ccc;border-radius:.5rem;margin:1.5rem 0;padding:1rem}',
  'legend{font-weight:600;padding:0 .25rem}',
  'h2{font-size:1.05rem;margin:.5rem 0}',
  '.field{margin:.75rem 0}',
  'label{display:block;font-weight:500}',
  'input,select,textarea{font:inherit;width:100%;box-sizing:border-box;padding:.4rem;border:1px solid #888;border-radius:.25rem}',
  'textarea{min-height:5rem}',
  '.address{border:0;padding:0;margin:.75rem 0}',
  '.address legend{font-weight:500;padding:0}',
  '.address input{margin-bottom:.25rem}',
  '.muted{color:#555;font-size:.9rem}',
  '.error{color:#a40000;margin:.25rem 0 0}',
  '.errors{border:1px solid #a40000;background:#fff4f4;border-radius:.5rem;padding:.5rem 1rem}',
  'button{font-size:1rem;padding:.5rem 1.25rem}',
].join('');
const STYLE_HASH = createHash('sha256').update(STYLE).digest('base64');
export const EXTERNAL_FORM_POLICY = `default-src 'none'; style-src 'sha256-${STYLE_HASH}'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`;

/** The reader's languages (Accept-Language), most wanted first, lower-cased. */
export function readerLanguages(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .map((part) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { tag: (tag ?? '').toLowerCase(), q: q ? Number(q.slice(2)) : 1 };
    })
    .filter((l) => l.tag && l.tag !== '*' && l.q > 0)
    .sort((a, b) => b.q - a.q)
    .map((l) => l.tag);
}

/** A localized text in the reader's language: an exact tag, then its primary language, then English, then the first. */
export function localized(text: unknown, languages: readonly string[], fallback = ''): string {
  if (typeof text === 'string') return text;
  if (!text || typeof text !== 'object') return fallback;
  const entries = Object.entries(text as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === 'string');
  const byTag = new Map(entries.map(([k, v]) => [k.toLowerCase(), v]));
  for (const want of [...languages, 'en']) {
    const exact = byTag.get(want);
    if (exact) return exact;
    const primary = want.split('-')[0]!;
    const near = entries.find(([k]) => k.toLowerCase().split('-')[0] === primary);
    if (near) return near[1];
  }
  return entries[0]?.[1] ?? fallback;
}

export interface FormPageInput {
  wizardName: unknown;
  steps: FormStep[];
  values: Record<string, FormValue>;
  formToken: string;
  expiresAt: Date;
  languages: readonly string[];
  /** why the last submission did not go through (shown above the form and next to the fields) */
  errors?: readonly RunErrorDetail[];
  /** a sentence above the errors */
  notice?: string;
}

const ADDRESS_LABELS: Record<(typeof ADDRESS_PARTS)[number], string> = {
  line1: 'Street and number',
  line2: 'Address line 2',
  city: 'City',
  region: 'Region or state',
  postalCode: 'Postal code',
  countryCode: 'Country code (two letters, e.g. DE)',
};

const attr = (value: string) => `"${escapeHtml(value)}"`;

function fieldTitle(input: { field: FormInput['field'] }, languages: readonly string[]): string {
  return localized(input.field.title, languages, input.field.columnName);
}

function control(input: FormInput, value: FormValue | undefined, describedBy: string | null): string {
  const id = input.field.dataFieldSimplyId;
  const name = inputName(id);
  const text = typeof value === 'string' ? value : '';
  const common = `id=${attr(`f-${id}`)} name=${attr(name)}${input.isRequired ? ' required aria-required="true"' : ''}${describedBy ? ` aria-describedby=${attr(describedBy)} aria-invalid="true"` : ''}`;
  const config = input.field.config as { maxLength?: number };
  switch (input.kind) {
    case 'textarea':
      return `<textarea ${common}>${escapeHtml(text)}</textarea>`;
    case 'text':
      // a value with line breaks keeps them: an input of one line would drop them on the way back
      return text.includes('\n')
        ? `<textarea ${common}${config.maxLength ? ` maxlength="${config.maxLength}"` : ''}>${escapeHtml(text)}</textarea>`
        : `<input type="text" ${common} value=${attr(text)}${config.maxLength ? ` maxlength="${config.maxLength}"` : ''}>`;
    case 'number':
      return `<input type="number" step="1" inputmode="numeric" ${common} value=${attr(text)}>`;
    case 'decimal':
      return `<input type="text" inputmode="decimal" ${common} value=${attr(text)}>`;
    case 'date':
      return `<input type="date" ${common} value=${attr(text)}>`;
    case 'datetime':
      return `<input type="datetime-local" step="any" ${common} value=${attr(text)}>`;
    case 'email':
      return `<input type="email" autocomplete="email" ${common} value=${attr(text)}>`;
    case 'tel':
      return `<input type="tel" autocomplete="tel" ${common} value=${attr(text)}>`;
    case 'url':
      return `<input type="url" ${common} value=${attr(text)}>`;
    case 'record':
      return `<input type="text" placeholder="XXXX-XXXX-XXXX" ${common} value=${attr(text)}>`;
    case 'records':
      return `<input type="text" placeholder="XXXX-XXXX-XXXX, XXXX-XXXX-XXXX" ${common} value=${attr(text)}>`;
    case 'boolean': {
      const option = (v: string, label: string) => `<option value=${attr(v)}${text === v ? ' selected' : ''}>${label}</option>`;
      return `<select ${common}>${option('', '—')}${option('true', 'Yes')}${option('false', 'No')}</select>`;
    }
    case 'address': {
      const parts = typeof value === 'object' && value ? value : {};
      return ADDRESS_PARTS.map(
        (part) =>
          `<label class="muted" for=${attr(`f-${id}-${part}`)}>${escapeHtml(ADDRESS_LABELS[part])}</label><input type="text" id=${attr(`f-${id}-${part}`)} name=${attr(inputName(id, part))} value=${attr(parts[part] ?? '')}${describedBy ? ` aria-describedby=${attr(describedBy)}` : ''}>`,
      ).join('');
    }
    default:
      return '';
  }
}

function fieldHtml(input: FormInput, values: Record<string, FormValue>, errors: readonly RunErrorDetail[], languages: readonly string[]): string {
  const id = input.field.dataFieldSimplyId;
  const title = escapeHtml(fieldTitle(input, languages));
  const required = input.isRequired ? ' <span class="muted">(required)</span>' : '';
  if (input.shownAbove) return `<div class="field"><p class="muted">${title}: entered above</p></div>`;
  if (input.kind === 'unsupported') {
    return `<div class="field"><p class="muted">${title}${required}: cannot be entered on this form (files are added by the team)</p></div>`;
  }
  const mine = errors.filter((e) => e.dataFieldSimplyId === id);
  const errorId = mine.length > 0 ? `e-${id}` : null;
  const messages = mine.map((e) => escapeHtml(e.message)).join('; ');
  const error = errorId ? `<p class="error" id=${attr(errorId)}>${messages}</p>` : '';
  if (input.kind === 'address') {
    return `<fieldset class="field address" id=${attr(`f-${id}`)}><legend>${title}${required}</legend>\n${control(input, values[id], errorId)}${error}</fieldset>`;
  }
  return `<div class="field"><label for=${attr(`f-${id}`)}>${title}${required}</label>
${control(input, values[id], errorId)}${input.kind === 'datetime' ? '<p class="muted">Time in UTC</p>' : ''}${error}</div>`;
}

function taskHtml(task: FormTask, values: Record<string, FormValue>, errors: readonly RunErrorDetail[], languages: readonly string[]): string {
  const title = `<h2>${escapeHtml(localized(task.title, languages))}</h2>`;
  if (task.type === 'DISPLAY') {
    const body = localized(task.body, languages);
    return `<section data-task=${attr(task.simplyId)}>${title}${body ? `<p>${escapeHtml(body).replace(/\n/g, '<br>')}</p>` : ''}</section>`;
  }
  if (task.type === 'VALIDATE_DATA_RECORD') {
    const names = task.fields.map((f) => escapeHtml(localized(f.title, languages, f.columnName))).join(', ');
    return `<section data-task=${attr(task.simplyId)}>${title}<p class="muted">Checked when you submit: ${names} must have a value.</p></section>`;
  }
  return `<section data-task=${attr(task.simplyId)}>${title}${task.inputs.map((i) => fieldHtml(i, values, errors, languages)).join('\n')}</section>`;
}

function errorSummary(input: FormPageInput): string {
  const errors = input.errors ?? [];
  if (errors.length === 0 && !input.notice) return '';
  const titles = new Map(input.steps.flatMap((s) => s.tasks.flatMap((t) => (t.type === 'UPDATE_DATA_RECORD' ? t.inputs.map((i) => i.field) : t.type === 'VALIDATE_DATA_RECORD' ? t.fields : []))).map((f) => [f.dataFieldSimplyId, localized(f.title, input.languages, f.columnName)]));
  const items = errors.map((e) => {
    const name = e.dataFieldSimplyId ? titles.get(e.dataFieldSimplyId) : undefined;
    return `<li>${name ? `<strong>${escapeHtml(name)}</strong>: ` : ''}${escapeHtml(e.message)}</li>`;
  });
  return `<div class="errors" role="alert" id="errors">${input.notice ? `<p>${escapeHtml(input.notice)}</p>` : ''}${items.length ? `<ul>${items.join('')}</ul>` : ''}</div>`;
}

export function formPage(input: FormPageInput): string {
  const name = localized(input.wizardName, input.languages, 'Form');
  const errors = input.errors ?? [];
  const steps = input.steps
    .map(
      (step, i) =>
        `<fieldset data-step=${attr(step.simplyId)}><legend>${escapeHtml(`Step ${i + 1}: ${localized(step.title, input.languages)}`)}</legend>
${step.tasks.map((t) => taskHtml(t, input.values, errors, input.languages)).join('\n')}
</fieldset>`,
    )
    .join('\n');
  return shell(
    name,
    `<main>
<h1>${escapeHtml(name)}</h1>
${errorSummary(input)}
<form method="post" novalidate>
<input type="hidden" name="formToken" value=${attr(input.formToken)}>
${steps}
<p class="muted">This link works until ${escapeHtml(input.expiresAt.toISOString().replace('T', ' ').slice(0, 16))} UTC.</p>
<button type="submit" id="submit">Submit</button>
</form>
</main>`,
  );
}

export function donePage(wizardName: unknown, languages: readonly string[]): string {
  const name = localized(wizardName, languages, 'Form');
  return shell(name, `<main><h1>${escapeHtml(name)}</h1><p id="done">Thank you: your answers were saved.</p></main>`);
}

/** The one page of a link that opens nothing: unknown, revoked, expired, used up or no longer usable. */
export function unavailablePage(): string {
  return shell('Form not available', '<main><h1>Form not available</h1><p>This link does not open a form. It may have expired or been withdrawn; ask whoever sent it for a new one.</p></main>');
}

export function messagePage(title: string, message: string): string {
  return shell(title, `<main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p></main>`);
}

function shell(title: string, body: string): string {
  return htmlPage({ title, head: `<style>${STYLE}</style>`, body });
}

export function sendFormPage(req: IncomingMessage, res: ServerResponse, status: number, html: string, headers: Record<string, string> = {}): void {
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  sendHtmlPage(req, res, status, html, EXTERNAL_FORM_POLICY);
}
