/**
 * One seed for every fast-check property of a run (vitest `setupFiles`), so that a run is
 * repeatable: the same inputs every time, on every machine. `FC_SEED=N` replays another seed,
 * `FC_SEED=random` draws one (to explore). When a test fails, the seed is printed with the
 * command that replays it; fast-check's own failure message adds the counterexample's path.
 */
import fc from 'fast-check';
import { beforeEach } from 'vitest';

/** The seed when FC_SEED is not set (any fixed number would do). */
export const DEFAULT_FC_SEED = 1_525_252_015;

function seedOf(text: string | undefined): number {
  if (text === undefined || text.trim() === '') return DEFAULT_FC_SEED;
  if (text.trim() === 'random') return Math.floor(Math.random() * 2 ** 31);
  const n = Number(text);
  if (!Number.isSafeInteger(n)) throw new Error(`FC_SEED must be a whole number or "random", not ${JSON.stringify(text)}`);
  return n;
}

const seed = seedOf(process.env['FC_SEED']);
fc.configureGlobal({ ...fc.readConfigureGlobal(), seed });

beforeEach((context) => {
  context.onTestFailed(() => {
    const file = context.task.file.name;
    console.error(`\nfast-check seed ${seed}: replay with  FC_SEED=${seed} npm test -- ${file} -t ${JSON.stringify(context.task.name)}\n`);
  });
});
