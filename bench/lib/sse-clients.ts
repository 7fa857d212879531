/**
 * Many light SSE clients for benchmarks: raw node:http connections (one socket each) that only
 * track the highest `id:` received and when each id first arrived.
 */
import http from 'node:http';
import { takeSseBlocks } from '../../harness/sse.ts';

export interface BenchSseClient {
  /** Resolves at the first frame (the retry hint): the stream is open and its guest is running. */
  readonly opened: Promise<void>;
  /** Resolves with the arrival time (performance.now()) of the first frame with id ≥ `sequence`. */
  arrival(sequence: number): Promise<number>;
  close(): void;
}

export function openBenchSse(url: string, agent: http.Agent): BenchSseClient {
  /** When each new highest id first arrived, in order (the last one is the highest so far). */
  const firsts: Array<{ id: number; at: number }> = [];
  const highest = () => firsts.at(-1)?.id ?? -1;
  const waiters: Array<{ sequence: number; resolve: (at: number) => void }> = [];
  let markOpen: () => void = () => undefined;
  let failOpen: (error: Error) => void = () => undefined;
  const opened = new Promise<void>((resolve, reject) => {
    markOpen = resolve;
    failOpen = reject;
  });
  const request = http.get(url, { agent, headers: { accept: 'text/event-stream' } }, (response) => {
    if (response.statusCode !== 200) {
      failOpen(new Error(`stream answered ${response.statusCode}`));
      response.resume();
      return;
    }
    let buffer = '';
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => {
      const at = performance.now();
      const taken = takeSseBlocks(buffer + chunk);
      buffer = taken.rest;
      for (const frame of taken.blocks) {
        markOpen();
        const id = /^id: (\d+)$/m.exec(frame);
        if (id && Number(id[1]) > highest()) firsts.push({ id: Number(id[1]), at });
      }
      for (let i = waiters.length - 1; i >= 0; i--) {
        const waiter = waiters[i]!;
        if (highest() >= waiter.sequence) {
          waiters.splice(i, 1);
          waiter.resolve(at);
        }
      }
    });
    response.on('error', () => undefined);
  });
  request.on('error', (error) => failOpen(error));
  return {
    opened,
    arrival(sequence) {
      // The frame may have come before the caller asked (e.g. before the command's own response).
      const seen = firsts.find((f) => f.id >= sequence);
      if (seen) return Promise.resolve(seen.at);
      return new Promise((resolve) => waiters.push({ sequence, resolve }));
    },
    close() {
      request.destroy();
    },
  };
}
