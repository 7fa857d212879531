/**
 * Whether a Node response's client is gone, the same for HTTP/1.1 and HTTP/2.
 *
 * An HTTP/2 compat response has no `destroyed` of its own: its stream has it. Checking only
 * `res.destroyed` took a stream whose session was already torn down (the client left before the
 * guest answered) for an open one, and a 'close' listener added after that never fires.
 */
import type { ServerResponse } from 'node:http';
import type { NodeResponse } from './node-http.ts';

export function responseClosed(res: NodeResponse): boolean {
  if (res.writableEnded) return true;
  if ('stream' in res) return res.stream.destroyed || res.stream.closed;
  return (res as ServerResponse).destroyed;
}

/** Calls `listener` once when the response closes: at once if it already has. */
export function onResponseClosed(res: NodeResponse, listener: () => void): void {
  if (responseClosed(res)) return listener();
  res.once('close', listener);
}
