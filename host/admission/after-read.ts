/**
 * An HTTP/2 exchange starts once its connection's current read has been parsed, so a stream its
 * client reset in the same write is never started.
 *
 * nghttp2 parses a whole socket read at once (up to 64 KiB: ~1,500 streams opened and reset by a
 * rapid-reset client, CVE-2023-44487) and calls into JavaScript for each frame, running the
 * microtasks in between: an exchange started from its HEADERS callback took a guest instance (and,
 * with a guest that answers without waiting, ran to its end) before the RST_STREAM right behind
 * it was seen. Started from the event loop's check phase (setImmediate), after the poll phase has
 * read and parsed what the socket holds, an exchange whose stream is already closed is skipped:
 * nothing of it runs. A request on a quiet connection waits one loop turn (microseconds).
 */
import type { NodeResponse } from '../net/node-http.ts';
import { responseClosed } from '../net/response-closed.ts';

/** Runs `start` after the current read; `departed` instead when the response closed meanwhile. */
export function afterRead(res: NodeResponse, start: () => Promise<void>, departed: () => void): Promise<void> {
  return new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
    if (!responseClosed(res)) return start();
    departed();
    return undefined;
  });
}
