/**
 * What a client can write into the host's log: request bodies it breaks off and malformed gRPC
 * frames are its own failures, logged at info or warn with a code, never at error (error is for faults
 * of the server, which an operator is paged for). Raw sockets and raw HTTP/2 streams against a
 * real host process.
 */
import http2 from 'node:http2';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type HostProcess } from '../../harness/host-process.ts';

let host: HostProcess;
beforeAll(async () => {
  host = await startHost({ args: ['--transport', 'both'] });
});
afterAll(async () => {
  await host?.stop();
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Sends a request head and part of its body over HTTP/1.1, then cuts the connection. */
async function abortHttp1Body(head: string, part: string): Promise<void> {
  const socket = net.connect(host.port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.on('error', () => undefined);
  socket.write(`${head}\r\n\r\n${part}`);
  await pause(300);
  socket.destroy();
}

/** One gRPC call on `session` whose request body is `body`; resolves when the stream closes. */
function grpcCall(session: http2.ClientHttp2Session, body: Buffer, end = true): http2.ClientHttp2Stream {
  const stream = session.request({ ':method': 'POST', ':path': '/counter.v1.CounterService/Increment', 'content-type': 'application/grpc', te: 'trailers' });
  stream.on('data', () => undefined);
  stream.on('error', () => undefined);
  if (end) stream.end(body);
  else stream.write(body);
  return stream;
}
const closed = (stream: http2.Http2Stream) => new Promise((resolve) => stream.once('close', resolve));

/** The component's log lines about failed requests and calls. */
const failureLines = () => host.logs().filter((line) => /^(request (rejected|failed)|gRPC call (rejected|failed))$/.test(String(line['msg'])));

describe('client-caused failures', () => {
  it('log at warn, never at error: aborted bodies over HTTP/1.1 and HTTP/2, malformed and truncated gRPC frames', async () => {
    const post = 'POST /api/counter/increment HTTP/1.1\r\nHost: x\r\nContent-Type: application/json';
    await abortHttp1Body(`${post}\r\nContent-Length: 1000`, '{"amount":');
    await abortHttp1Body(`${post}\r\nTransfer-Encoding: chunked`, '5\r\n{"amo\r\n');

    const session = http2.connect(host.url);
    session.on('error', () => undefined);
    const rest = session.request({ ':method': 'POST', ':path': '/api/counter/increment', 'content-type': 'application/json', 'content-length': '100' });
    rest.on('error', () => undefined);
    rest.write('{"amount":');
    await pause(300);
    rest.close(http2.constants.NGHTTP2_CANCEL);

    await closed(grpcCall(session, Buffer.from([0, 0, 0, 0, 10, 1, 2]))); // ends inside a message
    await closed(grpcCall(session, Buffer.from([0, 0, 0]))); // ends inside a message header
    await closed(grpcCall(session, Buffer.from([2, 0, 0, 0, 1, 8]))); // invalid compressed flag
    const broken = grpcCall(session, Buffer.from([0, 0, 0, 0, 10, 1]), false);
    await pause(300);
    broken.close(http2.constants.NGHTTP2_CANCEL); // the client gives up mid-message
    await closed(broken);

    // The four gRPC calls reach the guest and are each logged once; the REST bodies may be
    // refused by the host before any instance (it reads small bodies first) or by the guest.
    await expect.poll(() => failureLines().filter((line) => String(line['msg']).startsWith('gRPC')).length, { timeout: 10_000 }).toBeGreaterThanOrEqual(4);
    session.destroy();
    await pause(1_000);
    const errors = host.logs().filter((line) => line['level'] === 'error');
    expect(errors).toEqual([]);
    // The host's lines about cut connections are warnings; the service's refusals (4xx) are info.
    for (const line of failureLines()) expect(line).toMatchObject({ level: expect.stringMatching(/^(info|warn)$/), code: expect.any(String) });
  });
});
