/**
 * The start-up probe: one request to the component's `GET /api/health` before the host
 * announces it is listening. The guest validates its configuration (e.g. AUTH_*) when it builds
 * its application; if that fails it answers with the `configuration` error envelope naming the
 * variables (never values), and the start stops with a ConfigError (exit code 2).
 * The probe carries a token only it knows (`x-app-startup-probe`, the value of the guest's
 * APP_STARTUP_PROBE_TOKEN): to that request alone the guest says what its configuration turns
 * on and why anything is off (src/contract/startup-probe.ts), for the host's start-up line.
 * The host stays domain-agnostic: it only knows the error envelope.
 */
import * as v from 'valibot';
import { STARTUP_PROBE_HEADER } from '../../src/contract/headers.ts';
import { STARTUP_FEATURES_FIELD, type StartupFeature } from '../../src/contract/startup-probe.ts';
import { ConfigError } from '../config.ts';
import { describeError, type HostLogger } from '../log.ts';

export const HEALTH_PATH = '/api/health';

const answerSchema = v.object({ [STARTUP_FEATURES_FIELD]: v.optional(v.array(v.object({ name: v.string(), state: v.string() })), []) });

/** What the guest says is on (empty when the probe got no clean answer); throws ConfigError on a configuration answer. */
export async function probeGuestConfiguration(host: string, port: number, logger: HostLogger, token?: string): Promise<StartupFeature[]> {
  const target = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  let response: Response;
  try {
    const headers = token === undefined ? undefined : { [STARTUP_PROBE_HEADER]: token };
    response = await fetch(`http://${target}:${port}${HEALTH_PATH}`, { headers, signal: AbortSignal.timeout(30_000) });
  } catch (error) {
    logger.log('warn', 'the start-up probe could not reach the component', { code: 'startup_probe_failed', error: describeError(error) });
    return [];
  }
  const text = await response.text();
  if (response.ok) {
    const answer = v.safeParse(answerSchema, safeJson(text));
    return answer.success ? answer.output[STARTUP_FEATURES_FIELD] : [];
  }
  // Anything but an envelope is not a configuration answer.
  const envelope = (safeJson(text) ?? {}) as { error?: { code?: unknown; message?: unknown } };
  if (envelope.error?.code === 'configuration') throw new ConfigError(`${String(envelope.error.message)} (the application's variables, checked at start: docs/configuration.md)`);
  // Other answers (e.g. the gRPC-only transport's 404) say nothing about configuration.
  if (response.status >= 500) logger.log('warn', 'the start-up probe got an unexpected answer', { code: 'startup_probe_failed', status: response.status });
  return [];
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
