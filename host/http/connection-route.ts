/**
 * Where each new connection of the service port goes. One port serves HTTP/1.1 and HTTP/2
 * cleartext with prior knowledge (as gRPC clients such as grpcurl use it): a connection's first
 * bytes are compared with the HTTP/2 connection preface (RFC 9113 §3.4) and the socket is handed
 * to the matching Node server.
 *
 * Twice it waits for what its client owes (connection-gate.ts): before its first read, and again
 * before its bytes are handed over, as the client may have gone into debt meanwhile (its other
 * connections, accepted in the same turn, are parsed first). A first read of HTTP/2 holds up to
 * 64 KiB of frames, which nghttp2 parses in one go: a rapid-reset client opening many connections
 * at once would otherwise get a read of ~1,500 streams parsed on each.
 */
import type http from 'node:http';
import type http2 from 'node:http2';
import type net from 'node:net';
import { SNIFF_TIMEOUT_MS, whenRepaid, type ConnectionDebt } from './connection-gate.ts';

const PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n');

export interface Servers {
  h1: http.Server;
  h2: http2.Http2Server;
  /** What a client may owe before its connection is read (none: read at once). */
  debts: readonly ConnectionDebt[];
  /** The connection goes to HTTP/2 (the caller stops tracking it as an HTTP/1.1 socket). */
  onHttp2: () => void;
}

/** Reads a new connection once its client owes nothing, tells its protocol and hands it over. */
export function acceptConnection(socket: net.Socket, servers: Servers): void {
  const gated = (next: () => void) => (servers.debts.length > 0 ? whenRepaid(socket, servers.debts, next) : next());
  gated(() => {
    sniffProtocol(socket, (isHttp2) =>
      gated(() => {
        if (isHttp2) servers.onHttp2();
        (isHttp2 ? servers.h2 : servers.h1).emit('connection', socket);
        // The HTTP/1.1 parser reads the bytes put back through 'data' events; HTTP/2 reads them itself.
        if (!isHttp2) socket.resume();
      }),
    );
    // Held connections were paused; the sniffer reads through 'data' events.
    socket.resume();
  });
}

/** Reads just enough of a new connection to tell HTTP/2 prior knowledge from HTTP/1.1; the bytes read are put back and the socket paused. */
function sniffProtocol(socket: net.Socket, decided: (isHttp2: boolean) => void): void {
  let seen = Buffer.alloc(0);
  let decidedOrGone = false;
  // Timers run before the event loop's reads: a host whose loop was held past the limit (guest work
  // on a loaded machine) closed connections whose request had arrived meanwhile, unread, so the
  // kernel reset them and a client's POST failed with ECONNRESET. The close waits for the turn's reads.
  const timer = setTimeout(
    () =>
      setImmediate(() => {
        if (!decidedOrGone) socket.destroy();
      }),
    SNIFF_TIMEOUT_MS,
  );
  const onData = (chunk: Buffer) => {
    seen = Buffer.concat([seen, chunk]);
    const n = Math.min(seen.length, PREFACE.length);
    const isPreface = seen.subarray(0, n).equals(PREFACE.subarray(0, n));
    if (isPreface && seen.length < PREFACE.length) return; // could still be HTTP/2: read more
    decidedOrGone = true;
    clearTimeout(timer);
    socket.off('data', onData);
    socket.off('error', onError);
    socket.pause();
    socket.unshift(seen);
    decided(isPreface);
  };
  const onError = () => {
    decidedOrGone = true;
    clearTimeout(timer);
    socket.destroy();
  };
  socket.on('data', onData);
  socket.on('error', onError);
}
