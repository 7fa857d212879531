/**
 * An HTTP/2 exchange starts after its connection's current read: a stream reset in that read
 * (closed by then) is skipped and counted, an open one starts; and a waiting turn on a connection
 * (admission/pipeline.ts) is skipped when its HTTP/2 stream closed meanwhile.
 */
import { describe, expect, it } from 'vitest';
import { ConnectionTurns } from './pipeline.ts';
import { afterRead } from './after-read.ts';
import type { NodeResponse } from '../net/node-http.ts';

/** An HTTP/2 compat response as response-closed.ts sees it: its stream says whether it closed. */
const http2Response = (stream: { destroyed: boolean; closed: boolean }) => ({ writableEnded: false, stream }) as unknown as NodeResponse;

describe('afterRead()', () => {
  it('starts the exchange once the read is parsed, unless its stream closed meanwhile', async () => {
    const stream = { destroyed: false, closed: false };
    const started: string[] = [];
    const open = afterRead(
      http2Response({ destroyed: false, closed: false }),
      async () => void started.push('open'),
      () => started.push('departed'),
    );
    const reset = afterRead(
      http2Response(stream),
      async () => void started.push('reset'),
      () => started.push('departed'),
    );
    // The RST_STREAM parsed in the same read, after the HEADERS.
    stream.closed = true;
    expect(started).toEqual([]);
    await Promise.all([open, reset]);
    expect(started).toEqual(['open', 'departed']);
  });
});

describe('ConnectionTurns', () => {
  it('skips a waiting HTTP/2 exchange whose stream closed before its turn (a compat response has no destroyed of its own)', async () => {
    let departed = 0;
    const turns = new ConnectionTurns(() => departed++);
    const connection = {};
    const ran: number[] = [];
    let finishFirst!: () => void;
    const first = turns.run(connection, 1, http2Response({ destroyed: false, closed: false }), () =>
      new Promise<void>((resolve) => (finishFirst = resolve)).then(() => void ran.push(1)),
    );
    const stream = { destroyed: false, closed: false };
    const second = turns.run(connection, 1, http2Response(stream), async () => void ran.push(2));
    stream.destroyed = true;
    finishFirst();
    await Promise.all([first, second]);
    expect(ran).toEqual([1]);
    expect(departed).toBe(1);
    expect(turns.connections).toBe(0);
  });
});
