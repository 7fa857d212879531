/**
 * A raw TCP connection for HTTP/1.1 attacks that no HTTP client library makes: heads sent a byte
 * at a time, bodies trickled, bytes between requests. It records what the server sent and when
 * the server closed.
 */
import net from 'node:net';

export interface RawConnection {
  readonly socket: net.Socket;
  /** Everything received so far, as latin1 text. */
  received(): string;
  /** Resolves with the ms since connecting when the connection closes. */
  readonly closed: Promise<number>;
  isClosed(): boolean;
  /** Resolves once the received text matches (or rejects after `timeoutMs`). */
  waitFor(pattern: RegExp, timeoutMs: number): Promise<void>;
}

export function rawConnect(port: number): Promise<RawConnection> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let text = '';
    let isClosed = false;
    const listeners = new Set<() => void>();
    const socket = net.connect(port, '127.0.0.1');
    const closed = new Promise<number>((r) =>
      socket.once('close', () => {
        isClosed = true;
        for (const l of [...listeners]) l();
        r(performance.now() - started);
      }),
    );
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
      for (const l of [...listeners]) l();
    });
    socket.on('error', () => undefined);
    socket.once('connect', () =>
      resolve({
        socket,
        received: () => text,
        closed,
        isClosed: () => isClosed,
        waitFor: (pattern, timeoutMs) =>
          new Promise<void>((ok, fail) => {
            const check = () => {
              if (pattern.test(text)) {
                clearTimeout(timer);
                listeners.delete(check);
                ok();
              } else if (isClosed) {
                clearTimeout(timer);
                listeners.delete(check);
                fail(new Error(`closed without ${pattern}; received ${JSON.stringify(text.slice(0, 200))}`));
              }
            };
            const timer = setTimeout(() => {
              listeners.delete(check);
              fail(new Error(`no ${pattern} within ${timeoutMs} ms; received ${JSON.stringify(text.slice(0, 200))}`));
            }, timeoutMs);
            listeners.add(check);
            check();
          }),
      }),
    );
    socket.once('error', reject);
  });
}

/** Writes `text` one byte every `intervalMs` until it is all sent or the connection closes; returns a stop function. */
export function trickle(connection: RawConnection, text: string, intervalMs: number): () => void {
  let at = 0;
  const timer = setInterval(() => {
    if (at >= text.length || connection.isClosed()) return clearInterval(timer);
    connection.socket.write(text[at++]!);
  }, intervalMs);
  return () => clearInterval(timer);
}
