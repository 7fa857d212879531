/** A minimal SSE client for tests: parses frames as they arrive over a real HTTP connection. */
export interface SseFrame {
  id?: string;
  event?: string;
  data?: string;
  comment?: string;
  retry?: string;
}

export interface SseClient {
  readonly response: Response;
  readonly frames: SseFrame[];
  /** Resolves with the first frame (existing or future) that matches. */
  waitFor(match: (frame: SseFrame) => boolean, timeoutMs?: number): Promise<SseFrame>;
  close(): void;
}

/**
 * Splits what a stream delivered so far into its complete blocks (frames end with a blank line,
 * WHATWG HTML §9.2.6) and the unfinished rest, which the next chunk continues.
 */
export function takeSseBlocks(buffer: string): { blocks: string[]; rest: string } {
  const blocks: string[] = [];
  let rest = buffer;
  let end: number;
  while ((end = rest.indexOf('\n\n')) >= 0) {
    blocks.push(rest.slice(0, end));
    rest = rest.slice(end + 2);
  }
  return { blocks, rest };
}

export async function openSse(url: string, headers: Record<string, string> = {}): Promise<SseClient> {
  const controller = new AbortController();
  const response = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: controller.signal });
  const frames: SseFrame[] = [];
  const waiters = new Set<() => void>();
  void (async () => {
    if (!response.body) return;
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body) {
        const taken = takeSseBlocks(buffer + decoder.decode(chunk, { stream: true }));
        buffer = taken.rest;
        for (const block of taken.blocks) {
          const frame: SseFrame = {};
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) frame.comment = line.slice(1).trim();
            else {
              const i = line.indexOf(':');
              const key = line.slice(0, i) as keyof SseFrame;
              const value = line.slice(i + 1).replace(/^ /, '');
              frame[key] = frame[key] === undefined ? value : `${frame[key]}\n${value}`;
            }
          }
          frames.push(frame);
          for (const w of waiters) w();
        }
      }
    } catch {
      // aborted by close()
    }
  })();
  return {
    response,
    frames,
    waitFor(match, timeoutMs = 2_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = frames.find(match);
          if (found) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(found);
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching SSE frame within ${timeoutMs} ms; got ${JSON.stringify(frames)}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () => controller.abort(),
  };
}

export const counterFrame = (minSequence: number) => (f: SseFrame) => f.event === 'counter' && Number(f.id) >= minSequence;
