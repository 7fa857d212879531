/**
 * Outgoing HTTP to providers (from inside the component, over wasi:http): JSON responses checked
 * with valibot, a deadline on every call, and failures as OAuthError without response bodies.
 */
import * as v from 'valibot';
import { OAuthError, type OAuthErrorCode } from '../errors.ts';
import type { ProviderDeps } from './types.ts';

const PROVIDER_TIMEOUT_MS = 10_000;

/** Fetches and validates a JSON response; any failure is `code` with a value-free reason. */
export async function fetchJson<S extends v.GenericSchema>(deps: ProviderDeps, code: OAuthErrorCode, url: string, init: RequestInit, schema: S): Promise<v.InferOutput<S>> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), PROVIDER_TIMEOUT_MS);
  let response: Response;
  let body: unknown;
  try {
    response = await deps.fetch(url, { ...init, signal: controller.signal, headers: { accept: 'application/json', ...init.headers } });
    body = await response.json().catch(() => undefined);
  } catch (error) {
    throw new OAuthError(code, 'network', { cause: error });
  } finally {
    clearTimeout(timer);
  }
  if (!response.ok) throw new OAuthError(code, 'http_status', { status: response.status });
  const parsed = v.safeParse(schema, body);
  if (!parsed.success) throw new OAuthError(code, 'response_shape', { status: response.status });
  return parsed.output;
}
