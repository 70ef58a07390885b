// How many tokens one run (a feature's chain of model steps, e.g. one assistant turn with its tool
// calls) may still use. A run checks before each step and is charged after it, so the step that
// crosses the limit completes and the next one is refused: a step cannot be stopped half-paid.
import { AiError } from './ai-errors.ts';

export class TokenBudget {
  readonly limit: number;
  #used = 0;

  constructor(limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError('a token budget is a positive integer');
    this.limit = limit;
  }

  get used(): number {
    return this.#used;
  }

  get remaining(): number {
    return Math.max(0, this.limit - this.#used);
  }

  charge(usage: { totalTokens: number }): void {
    this.#used += Math.max(0, usage.totalTokens);
  }

  /** throws AiError 'budget_exceeded' once nothing remains */
  assertAvailable(): void {
    if (this.remaining === 0) throw new AiError('budget_exceeded');
  }
}
