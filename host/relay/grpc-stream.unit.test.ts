/** A relayed gRPC server stream: trailers when the host ends it, and no keepalive bytes between messages. */
import { describe, expect, it } from 'vitest';
import type { NodeResponse } from '../net/node-http.ts';
import type { HostLogger } from '../log.ts';
import { localPubSub } from '../pubsub/local.ts';
import type { RelaySink } from './delivery.ts';
import { grpcSink } from './grpc-stream.ts';
import { StreamRelay } from './relay.ts';

const silent: HostLogger = { log: () => undefined };

/** The parts of a Node response the sink touches, recording what was sent. */
function fakeResponse() {
  const sent = { bytes: [] as Uint8Array[], trailers: undefined as Record<string, string> | undefined, ended: false };
  const res = {
    writableEnded: false,
    destroyed: false,
    addTrailers: (trailers: Record<string, string>) => void (sent.trailers = trailers),
    end: () => {
      sent.ended = true;
      res.writableEnded = true;
    },
  };
  const base: RelaySink = {
    write: (bytes) => void sent.bytes.push(bytes),
    buffered: 0,
    get closed() {
      return res.writableEnded;
    },
    onClose: () => undefined,
    end: () => res.end(),
    destroy: () => undefined,
    keepalive: new TextEncoder().encode(': keepalive\n\n'),
  };
  return { sink: grpcSink(base, res as unknown as NodeResponse), sent };
}

describe('grpcSink()', () => {
  it('ends the call UNAVAILABLE in trailers when the host ends it, once', () => {
    const { sink, sent } = fakeResponse();
    sink.end();
    sink.end();
    expect(sent).toMatchObject({ ended: true, trailers: { 'grpc-status': '14', 'grpc-message': 'the server is shutting down' } });
  });

  it('gets no keepalive from the relay however long it stays silent', async () => {
    const { sink, sent } = fakeResponse();
    const relay = new StreamRelay({
      poll: async (_path, after) => ({ bytes: new Uint8Array(0), after }),
      pubsub: localPubSub(),
      logger: silent,
      timings: { keepaliveMs: 20, flushMs: 10 },
    });
    relay.adopt(sink, '/svc/Watch', { channel: 'c', mode: 'off', intervalMs: 500, after: 0 }, relay.mark());
    await new Promise((resolve) => setTimeout(resolve, 300));
    relay.close();
    expect(sent.bytes).toEqual([]);
    expect(sent.trailers?.['grpc-status']).toBe('14');
  });
});
