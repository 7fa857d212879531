/**
 * Noticing a client that went away while a long-lived response is idle. The guest only learns
 * of it when it writes; a stream with nothing to send (gRPC WatchCounter between states) would
 * keep its instance until the next state. A marked response is probed (`check-write` fails on a
 * closed stream) whenever its producer stays silent for PROBE_MS, and its body is then cancelled.
 */
const marked = new WeakSet<Response>();

export const PROBE_MS = 1_000;

export function probeClientWhileIdle(response: Response): Response {
  marked.add(response);
  return response;
}

export function shouldProbeClient(response: Response): boolean {
  return marked.has(response);
}
