import fc from 'fast-check';

/**
 * One seed for every property of a run. `npm test` uses the fixed seed below, so a run is
 * reproducible; `FC_SEED=random` draws one (printed, so a failure can be replayed), and
 * `FC_SEED=<integer>` replays a run. A failing property prints its counterexample, seed and path;
 * `FC_SEED=<seed> FC_PATH=<path> npx jest test/unit/properties -t '<its name>'` replays exactly
 * that case. `FC_NUM_RUNS` raises (or lowers) the number of examples per property.
 */
export const fixedSeed = 20261128;

function seedFromEnvironment(): number {
  const raw = process.env.FC_SEED?.trim();
  if (!raw) return fixedSeed;
  if (raw === 'random') {
    const seed = Math.floor(Math.random() * 0x7fffffff);
    process.stderr.write(`fast-check seed ${seed} (replay with FC_SEED=${seed})\n`);
    return seed;
  }
  if (!/^-?\d+$/.test(raw)) throw new Error(`FC_SEED must be an integer or "random", got "${raw}"`);
  return Number(raw);
}

function positiveInteger(name: string): number | undefined {
  const raw = process.env[name]?.trim();
  if (!raw) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return Number(raw);
}

export const propertySeed = seedFromEnvironment();
const path = process.env.FC_PATH?.trim() || undefined;
const numRuns = positiveInteger('FC_NUM_RUNS');

fc.configureGlobal({ seed: propertySeed, ...(path ? { path } : {}), ...(numRuns ? { numRuns } : {}) });

export { fc };
