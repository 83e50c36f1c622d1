import fc from 'fast-check';

/**
 * fast-check settings for every property: a failing property's error names its `seed`; set `FC_SEED` to that value
 * to replay the run exactly, e.g. `FC_SEED=-1860745852 npx vitest run test/link/quote-value.test.ts -t 'clean text'`.
 */
export function fastCheckSettings(env: Readonly<Record<string, string | undefined>>): fc.GlobalParameters {
  const seed = env['FC_SEED'];
  if (seed === undefined || seed === '') return {};
  const value = Number(seed);
  if (!Number.isSafeInteger(value)) throw new Error(`FC_SEED must be an integer, got \`${seed}\``);
  return { seed: value };
}

fc.configureGlobal(fastCheckSettings(process.env));
