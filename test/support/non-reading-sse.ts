/**
 * An HTTP/1.1 SSE client of /api/counter/stream that reads the head and the retry hint, then never
 * reads again (its socket paused), as the overload tests' attackers do. `from`: the local address
 * to connect from (any of 127/8 on Linux), so one test can play several clients.
 */
import net from 'node:net';

const STREAM = '/api/counter/stream';

export function openNonReader(port: number, from?: string, headers: Record<string, string> = {}): Promise<net.Socket> {
  const extra = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1', ...(from === undefined ? {} : { localAddress: from }) }, () =>
      socket.write(`GET ${STREAM} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n${extra}\r\n`),
    );
    let seen = '';
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      if (!seen.startsWith('HTTP/1.1 200')) return reject(new Error(`the stream got ${seen.slice(0, 12)}`));
      if (!seen.includes('retry: 1000')) return;
      socket.off('data', onData);
      socket.pause();
      resolve(socket);
    };
    socket.on('data', onData);
    socket.once('error', reject);
  });
}
