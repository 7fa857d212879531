/**
 * Storage evidence for the live tools: reads `/api/auth/storage/status` with the operator's
 * bearer token and checks the OAuth flow's events and the auth projection's progress. Only counts
 * and sequence numbers leave this module (the endpoint reports nothing else).
 */
import * as v from 'valibot';
import type { Scope, ToolOutput } from './output.ts';
import { errorCode, jsonBody, request } from './http.ts';

export const IDENTITY_LINKED = 'auth_external_identity_linked';
export const SESSION_ISSUED = 'auth_session_issued';
/**
 * What a completed provider login writes. Its pending state lives in key-value and expires there
 * (docs/auth.md), so starting or finishing a login writes no state event: storage status cannot
 * count login starts.
 */
export const FLOW_EVENTS = [IDENTITY_LINKED, SESSION_ISSUED] as const;
export const PROJECTION = 'auth_projection';

const statusSchema = v.object({
  events: v.record(v.pipe(v.string(), v.regex(/^auth_[a-z_]{1,60}$/)), v.pipe(v.number(), v.integer(), v.minValue(0))),
  total: v.number(),
  latest_sequence: v.number(),
  projections: v.array(v.object({ name: v.string(), checkpoint: v.number() })),
});
export type StorageStatus = v.InferOutput<typeof statusSchema>;

export async function readStorageStatus(baseUrl: string, token: string): Promise<{ status: StorageStatus } | { problem: string }> {
  const result = await request(`${baseUrl}/api/auth/storage/status`, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } });
  if ('problem' in result) return result;
  const { response } = result;
  const body = await jsonBody(response);
  if (response.status === 401) return { problem: 'storage status refused AUTH_SYSTEM_ACCESS_TOKEN (401: missing, malformed, expired or signed with another secret)' };
  if (response.status === 403) return { problem: 'AUTH_SYSTEM_ACCESS_TOKEN lacks a second factor (amr/acr) or the system_admin role (403)' };
  if (response.status !== 200) return { problem: `storage status answered HTTP ${response.status}${errorCode(body) ? ` (${errorCode(body)})` : ''}` };
  const parsed = v.safeParse(statusSchema, body);
  return parsed.success ? { status: parsed.output } : { problem: 'storage status answered 200 with an unexpected body' };
}

export const count = (status: StorageStatus, kind: string): number => status.events[kind] ?? 0;
export const checkpointOf = (status: StorageStatus): number | undefined => status.projections.find((p) => p.name === PROJECTION)?.checkpoint;

/** Reads the status and records one check for it; undefined when it could not be read. */
export async function storageStatusChecked(out: ToolOutput, scope: Scope, baseUrl: string, token: string, what: string): Promise<StorageStatus | undefined> {
  const read = await readStorageStatus(baseUrl, token);
  if ('problem' in read) {
    out.fail(scope, `storage status (${what}): ${read.problem}`);
    return undefined;
  }
  out.pass(scope, `storage status is readable with AUTH_SYSTEM_ACCESS_TOKEN (${what})`);
  return read.status;
}

/**
 * Each kind went up by at least `atLeast` since `before` (evidence of this run), or, without a
 * baseline, is above 0.
 */
export function checkEvents(out: ToolOutput, scope: Scope, kinds: readonly string[], after: StorageStatus, before?: StorageStatus, atLeast = 1): void {
  for (const kind of kinds) {
    const now = count(after, kind);
    if (before) {
      const was = count(before, kind);
      const ok = now - was >= atLeast;
      const by = atLeast > 1 ? ` by at least ${atLeast}` : '';
      out.check(scope, ok, ok ? `storage shows ${kind} went up${by} (${was} → ${now})` : `storage shows ${kind} did not go up${by} (${was} → ${now})`);
    } else {
      out.check(scope, now > 0, now > 0 ? `storage shows ${kind} (count ${now})` : `storage shows no ${kind} (count 0)`);
    }
  }
}

/**
 * The projection has folded the log: its checkpoint is above 0 and reaches the latest sequence
 * (a second read must reach the first read's latest sequence when writes raced the first), and
 * with a baseline it moved past the baseline's checkpoint.
 */
export async function checkProjectionProgress(
  out: ToolOutput,
  scope: Scope,
  status: StorageStatus,
  reread: () => Promise<StorageStatus | undefined>,
  before?: StorageStatus,
): Promise<void> {
  const checkpoint = checkpointOf(status);
  if (checkpoint === undefined) {
    out.fail(scope, `storage status reports no ${PROJECTION}`);
    return;
  }
  let reached = checkpoint;
  if (checkpoint < status.latest_sequence) reached = checkpointOf((await reread()) ?? status) ?? checkpoint;
  const caughtUp = checkpoint > 0 && reached >= status.latest_sequence;
  out.check(
    scope,
    caughtUp,
    caughtUp
      ? `${PROJECTION} checkpoint ${reached} has reached the latest sequence ${status.latest_sequence}`
      : `${PROJECTION} checkpoint ${reached} lags the latest sequence ${status.latest_sequence}`,
  );
  if (before) {
    const was = checkpointOf(before) ?? 0;
    out.check(scope, reached > was, reached > was ? `${PROJECTION} checkpoint moved (${was} → ${reached})` : `${PROJECTION} checkpoint did not move (${was} → ${reached})`);
  }
}
