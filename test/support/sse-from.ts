/**
 * An SSE client of /api/counter/stream from a given local address (any of 127/8 on Linux), so one
 * test can play several clients: records each counter frame's id and when it arrived.
 */
import http from 'node:http';
import { takeSseBlocks } from '../../harness/sse.ts';

export interface CounterFrames {
  /** Resolves once the stream's head and retry hint came. */
  readonly opened: Promise<void>;
  /** Each counter frame in order of arrival: its id, and performance.now() when it came. */
  readonly frames: Array<{ id: number; at: number }>;
  close(): void;
}

export function openCounterStream(port: number, from: string): CounterFrames {
  const frames: Array<{ id: number; at: number }> = [];
  let request: http.ClientRequest | undefined;
  const opened = new Promise<void>((resolve, reject) => {
    request = http.get({ host: '127.0.0.1', port, path: '/api/counter/stream', localAddress: from, agent: false, headers: { accept: 'text/event-stream' } }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        return reject(new Error(`the stream answered ${res.statusCode}`));
      }
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        const at = performance.now();
        const taken = takeSseBlocks(buffer + chunk);
        buffer = taken.rest;
        for (const block of taken.blocks) {
          if (block.startsWith('retry:')) resolve();
          const id = /^id: (\d+)$/m.exec(block);
          if (id && /^event: counter$/m.test(block)) frames.push({ id: Number(id[1]), at });
        }
      });
      res.on('error', () => undefined);
    });
    request.on('error', reject);
  });
  return { opened, frames, close: () => request?.destroy() };
}
