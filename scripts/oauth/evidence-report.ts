/**
 * `npm run oauth:evidence-report`: the redacted storage evidence for a change
 * record: every auth event count (deployment-wide) and the auth projection checkpoint, read with
 * AUTH_SYSTEM_ACCESS_TOKEN. OAUTH_EVIDENCE_MODE=preflight expects OAuth state creation;
 * `callback` expects state creation, consumption, identity linking, session issuance and the
 * projection caught up (recorded for tracker A11 as the `evidence` check when OAUTH_PROVIDERS names
 * exactly one provider: the counts are deployment-wide).
 * Prints counts and sequence numbers only. Exit 0 / 1 / 2 (bad parameters).
 *
 *   BASE_URL=https://auth.example.com OAUTH_PROVIDERS=provider_a OAUTH_EVIDENCE_MODE=callback \
 *     AUTH_SYSTEM_ACCESS_TOKEN=… npm run oauth:evidence-report
 */
import { recordForA11 } from './live/a11-results.ts';
import { checkEvents, checkpointOf, checkProjectionProgress, FLOW_EVENTS, PROJECTION, readStorageStatus } from './live/storage-evidence.ts';
import { runTool } from './live/tool.ts';

await runTool('evidence-report', { mode: true, token: true }, async ({ env, params, out }) => {
  const { baseUrl, providers, mode } = params;
  const token = params.accessToken!;
  out.line(`OAuth evidence report (${mode} mode)`);
  out.line(`service:    ${baseUrl}`);
  out.line(`providers:  ${providers.join(', ')}`);
  out.line(`taken at:   ${new Date().toISOString()}`);
  const read = await readStorageStatus(baseUrl, token);
  if ('problem' in read) return out.fail('shared', `storage status: ${read.problem}`);
  const { status } = read;
  const kinds = Object.keys(status.events).sort();
  const width = Math.max(...kinds.map((k) => k.length), 10);
  out.line('auth event counts (whole deployment; counts only, no payloads):');
  for (const kind of kinds) out.line(`  ${kind.padEnd(width)}  ${status.events[kind]}`);
  out.line(`  ${'total'.padEnd(width)}  ${status.total}`);
  out.line(`projection: ${PROJECTION} checkpoint ${checkpointOf(status) ?? 'none'} (latest sequence ${status.latest_sequence})`);
  out.line('');
  out.pass('shared', 'storage status is readable with AUTH_SYSTEM_ACCESS_TOKEN');
  if (mode === 'callback') checkEvents(out, 'shared', FLOW_EVENTS, status);
  await checkProjectionProgress(out, 'shared', status, async () => {
    const again = await readStorageStatus(baseUrl, token);
    return 'status' in again ? again.status : undefined;
  });
  if (mode !== 'callback')
    return out.note(
      'preflight mode shows the counts only (login starts keep their state in key-value, not in the event store); run OAUTH_EVIDENCE_MODE=callback after a completed login for the evidence tracker A11 counts',
    );
  // The counts are deployment-wide, so they count as one provider's evidence only when the
  // operator names that provider alone (run it after each provider's login).
  if (!env.OAUTH_PROVIDERS?.trim() || providers.length !== 1)
    return out.note('not recorded for tracker A11: set OAUTH_PROVIDERS to the one provider whose login this evidence follows');
  recordForA11(out, env, 'evidence', 'oauth:evidence-report', baseUrl, [{ provider: providers[0]!, passed: out.failures === 0 }]);
});
