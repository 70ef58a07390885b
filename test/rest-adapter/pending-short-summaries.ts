// Route files whose summaries are still whole sentences: their owners are rewriting them in the
// same change. The summary checks (OpenAPI document, /docs sidebar) leave their routes out; an
// entry goes once its file has short summaries.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { RestRoute } from '../../rest-adapter/route.ts';

export const PENDING_SHORT_SUMMARIES: readonly string[] = ['rest-adapter/routes/messages.ts'];

const root = path.resolve(import.meta.dirname, '../..');

/** `METHOD /path` of every route the files above declare (each file exports its table). */
export async function pendingRouteKeys(): Promise<Set<string>> {
  const keys = new Set<string>();
  for (const file of PENDING_SHORT_SUMMARIES) {
    const exports = (await import(pathToFileURL(path.join(root, file)).href)) as Record<string, unknown>;
    for (const table of Object.values(exports)) {
      if (Array.isArray(table)) for (const r of table as RestRoute[]) keys.add(`${r.method} ${r.path}`);
    }
  }
  return keys;
}
