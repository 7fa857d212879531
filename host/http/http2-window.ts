/**
 * Stops an HTTP/2 client from sending body bytes while it owes pieces (host/admission/piece-rate.ts),
 * by holding its connection's stream windows at 0: SETTINGS_INITIAL_WINDOW_SIZE 0 moves every open
 * stream's window down by the old size and gives new streams none (RFC 9113 §6.9.2), and nghttp2
 * sends no WINDOW_UPDATE for a window of 0, so the client may send only what it had in flight. When
 * the last stream holding it is repaid, the default window (65,535) comes back to every stream.
 *
 * Why not pause the stream: Node then stops that stream's WINDOW_UPDATEs, but keeps each DATA frame
 * it still receives as a Buffer of its own until the stream reads again, ~400 bytes of heap per
 * one-byte frame, 26 MiB per stream (measured: 100 paused streams, 1 GiB). Held at window 0, the
 * streams keep being read and their bytes go to the body's 16 KiB blocks (host/wasi/io.ts).
 *
 * A client that never acknowledges the SETTINGS is never held (nghttp2 applies them on the ACK):
 * its connection is closed with SETTINGS_TIMEOUT, as RFC 9113 §6.5.3 allows.
 */
import http2 from 'node:http2';

/** The window of a stream at its start when nothing holds its connection (RFC 9113 §6.9.2). */
export const DEFAULT_STREAM_WINDOW = 65_535;
/** How long a client has to acknowledge the SETTINGS that holds or frees its windows. */
export const SETTINGS_ACK_TIMEOUT_MS = 10_000;

/** Streams of each connection holding its windows at 0. */
const holders = new WeakMap<http2.Http2Session, number>();

/** Sends the new window; a client that does not acknowledge it in time is cut. */
function applyWindow(session: http2.Http2Session, size: number): void {
  if (session.destroyed || session.closed) return;
  const cut = () => session.destroy(undefined, http2.constants.NGHTTP2_SETTINGS_TIMEOUT);
  const timer = setTimeout(cut, SETTINGS_ACK_TIMEOUT_MS);
  timer.unref();
  try {
    session.settings({ initialWindowSize: size }, () => clearTimeout(timer));
  } catch {
    // Too many SETTINGS unacknowledged (ERR_HTTP2_MAX_PENDING_SETTINGS_ACK): the client ignores them.
    clearTimeout(timer);
    cut();
  }
}

/** One more stream of `session` holds its windows at 0. */
export function holdWindows(session: http2.Http2Session): void {
  const held = holders.get(session) ?? 0;
  holders.set(session, held + 1);
  if (held === 0) applyWindow(session, 0);
}

/** A stream that held `session` lets go; the last one gives the windows back. */
export function releaseWindows(session: http2.Http2Session): void {
  const held = (holders.get(session) ?? 1) - 1;
  if (held > 0) {
    holders.set(session, held);
    return;
  }
  holders.delete(session);
  applyWindow(session, DEFAULT_STREAM_WINDOW);
}
