/**
 * Every GPU test (e2e/harness/gpu-tests.ts: the list `npm run test:dawn` and the Chromium
 * kernel tests run) on whatever adapter Dawn for Node finds, without vitest: for a device machine
 * (bench/device/run.sh), where a real GPU's compiler may round, contract or order differently from
 * the software adapters the tests see in CI. Prints one line a test (ok or FAIL, seconds) and the
 * failing reports, then a JSON summary as the last line; exits 1 when any test fails or throws.
 * Bundled into .device/ by bench/device/pack.sh; here: `node bench/dawn-bundle.mjs OUT bench/device/gpu-tests.ts`.
 */
import { GPU_TESTS } from '../../e2e/harness/gpu-tests';
import { dawnEnv } from '../../e2e/dawn/dawn';

async function main(): Promise<void> {
  const env = await dawnEnv();
  process.stdout.write(`${env.adapter}\nfeatures: ${env.features.join(', ')}\n`);
  const results: { name: string; ok: boolean; seconds: number; failures: string[] }[] = [];
  for (const t of GPU_TESTS) {
    const t0 = performance.now();
    let failures: string[];
    try {
      const reports = await t.run(env);
      failures = reports.length === 0 ? ['no report'] : reports.filter((r) => !r.ok).map((r) => r.summary);
    } catch (e) {
      failures = [`threw: ${e instanceof Error ? e.message : String(e)}`];
    }
    const seconds = (performance.now() - t0) / 1000;
    results.push({ name: t.name, ok: failures.length === 0, seconds, failures });
    process.stdout.write(`${failures.length === 0 ? 'ok  ' : 'FAIL'} ${seconds.toFixed(1).padStart(6)} s  ${t.name}\n`);
    for (const f of failures.slice(0, 5)) process.stdout.write(`       ${f}\n`);
    if (failures.length > 5) process.stdout.write(`       (+${failures.length - 5} more)\n`);
  }
  const failed = results.filter((r) => !r.ok).length;
  const summary = { adapter: env.adapter, features: env.features, tests: results.length, failed, results };
  // Dawn's instance keeps the event loop alive: exit once stdout has taken the text.
  process.stdout.write(`${JSON.stringify(summary)}\n`, () => process.exit(failed > 0 ? 1 : 0));
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(2);
});
