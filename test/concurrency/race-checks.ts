// Checks on what a race left behind, recorded on the kit rather than thrown.
import { isDeepStrictEqual } from 'node:util';
import { succeeded, type Exchange, type RaceKit } from './race-kit.ts';

export function expectSuccesses(kit: RaceKit, exchanges: Exchange[], count: number, why: string): void {
  const ok = succeeded(exchanges).length;
  if (ok !== count) kit.problem(`${ok} of ${exchanges.length} succeeded; ${why}`, exchanges);
}

export function expectSame(kit: RaceKit, what: string, actual: unknown, expected: unknown, exchanges: Exchange[] = []): void {
  if (!isDeepStrictEqual(actual, expected)) kit.problem(`${what} is ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`, exchanges);
}

/**
 * The final state must be what one of the successful requests asked for (the last writer wins,
 * whole). `submitted[i]` is what `exchanges[i]` asked for; a refused request wrote nothing.
 */
export function expectOneOf(kit: RaceKit, what: string, actual: unknown, submitted: readonly unknown[], exchanges: Exchange[]): void {
  const written = submitted.filter((_, i) => exchanges[i]!.response.status < 300);
  if (!written.some((s) => isDeepStrictEqual(s, actual))) kit.problem(`${what} is ${JSON.stringify(actual)}, none of the ${written.length} successfully submitted`, exchanges);
}

/** positions must stay a permutation of first..first+count-1 */
export function expectDenseRanks(kit: RaceKit, what: string, ranks: number[], count: number, first: number, exchanges: Exchange[] = []): void {
  const sorted = [...ranks].sort((x, y) => x - y);
  const dense = Array.from({ length: count }, (_, i) => first + i);
  if (!isDeepStrictEqual(sorted, dense)) kit.problem(`${what} are ${JSON.stringify(sorted)}, expected ${first}..${first + count - 1} once each`, exchanges);
}

export const distinct = (values: unknown[]) => new Set(values.map((v) => JSON.stringify(v))).size === values.length;

/**
 * N deletes of one thing must answer as the same deletes one after another would: where a repeated
 * delete is a 404, exactly one of the racers succeeds; where it is a 2xx (an idempotent delete),
 * every racer may.
 */
export async function expectOneDeletion(kit: RaceKit, exchanges: Exchange[], repeat: { method: string; path: string; body?: unknown }, readBack?: string): Promise<void> {
  const [again] = await kit.race([repeat]);
  const status = again!.response.status;
  if (status === 404) expectSuccesses(kit, exchanges, 1, 'a repeated delete is a 404, so exactly one racer should have deleted');
  else if (status >= 300) kit.problem(`a delete repeated after the race answered ${status}, neither 404 nor a 2xx`, [again!, ...exchanges]);
  if (readBack) {
    const read = await kit.adminResponse('GET', readBack);
    if (read.status !== 404) kit.problem(`GET ${readBack} after the deletes answered ${read.status}, not 404`, exchanges);
  }
}
