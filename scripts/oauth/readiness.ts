/**
 * `npm run oauth:readiness`: offline credential readiness check for live OAuth verification,
 * the first of the operator tools. Reads the environment and `.env` only (no network). One PASS/FAIL line per
 * check; exit 0 when all pass, 1 on any failure, 2 on bad parameters. Never prints a value.
 *
 *   OAUTH_PROVIDERS=provider_a npm run oauth:readiness
 */
import { operatorEnv, selectedProviders } from './operator-env.ts';
import { readinessChecks } from './readiness-checks.ts';

const env = operatorEnv();
const providers = selectedProviders(env);
if ('error' in providers) {
  console.log(`FAIL  parameters  ${providers.error}`);
  process.exit(2);
}
console.log(`OAuth credential readiness (offline) for ${providers.join(', ')}: reads the environment and .env only`);
const results = readinessChecks(env, providers);
for (const r of results) console.log(`${r.passed ? 'PASS' : 'FAIL'}  ${r.scope.padEnd(10)}  ${r.message}`);
const failed = results.filter((r) => !r.passed).length;
console.log(failed === 0 ? `readiness: all ${results.length} checks passed` : `readiness: ${failed} of ${results.length} checks failed`);
process.exitCode = failed === 0 ? 0 : 1;
