/** Sends one raw request head on a fresh TCP connection and reads until the server closes it. */
import net from 'node:net';

export interface RawAnswer {
  /** The status code of the first response, or undefined when the server closed without one. */
  status: number | undefined;
  text: string;
}

export function rawExchange(port: number, head: string, timeoutMs = 20_000): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no end of the answer within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    // A server may reset a connection it refuses: that is an answer too (no status).
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('latin1');
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1];
      resolve({ status: status === undefined ? undefined : Number(status), text });
    });
    socket.write(Buffer.from(head, 'latin1'));
  });
}
