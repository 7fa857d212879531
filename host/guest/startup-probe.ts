/**
 * The start-up probe: one request to the component's `GET /api/health` before the host
 * announces it is listening. The guest validates its configuration (e.g. AUTH_*) when it builds
 * its application; if that fails it answers with the `configuration` error envelope naming the
 * variables (never values), and the start stops with a ConfigError (exit code 2).
 * The probe carries a token only it knows (`x-app-startup-probe`, the value of the guest's
 * APP_STARTUP_PROBE_TOKEN): the guest logs its configuration warnings (e.g. an OAuth provider
 * that is enabled but lacks a credential) for that request, so they appear once at start.
 * The host stays domain-agnostic: it only knows the error envelope.
 */
import { STARTUP_PROBE_HEADER } from '../../src/contract/headers.ts';
import { ConfigError } from '../config.ts';
import { describeError, type HostLogger } from '../log.ts';

export const HEALTH_PATH = '/api/health';

export async function probeGuestConfiguration(host: string, port: number, logger: HostLogger, token?: string): Promise<void> {
  const target = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  let response: Response;
  try {
    const headers = token === undefined ? undefined : { [STARTUP_PROBE_HEADER]: token };
    response = await fetch(`http://${target}:${port}${HEALTH_PATH}`, { headers, signal: AbortSignal.timeout(30_000) });
  } catch (error) {
    logger.log('warn', 'the start-up probe could not reach the component', { code: 'startup_probe_failed', error: describeError(error) });
    return;
  }
  const text = await response.text();
  if (response.ok) return;
  let envelope: { error?: { code?: unknown; message?: unknown } } = {};
  try {
    envelope = JSON.parse(text) as typeof envelope;
  } catch {
    // not an envelope: not a configuration answer
  }
  if (envelope.error?.code === 'configuration') throw new ConfigError(`${String(envelope.error.message)} (the application's variables, checked at start: docs/configuration.md)`);
  // Other answers (e.g. the gRPC-only transport's 404) say nothing about configuration.
  if (response.status >= 500) logger.log('warn', 'the start-up probe got an unexpected answer', { code: 'startup_probe_failed', status: response.status });
}
