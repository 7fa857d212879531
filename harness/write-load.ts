/**
 * Write load for the several-hosts scale tests: clients that each send
 * `{"amount":1}` increments one after another to a host, recording status and latency, and the
 * store-side check that the counter stream is contiguous (revisions 1..n, and global sequences
 * without gaps) on PostgreSQL or Redis.
 */
import type pg from 'pg';
import type { Redis } from 'ioredis';
import { COUNTER_STREAM_ID } from '../src/counter/domain/counter.ts';

export interface Answer {
  status: number;
  ms: number;
  count?: number;
}

/** One increment; a network failure (host killed) is status 0. */
export async function increment(url: string): Promise<Answer> {
  const started = performance.now();
  try {
    const response = await fetch(`${url}/api/counter/increment`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"amount":1}',
      signal: AbortSignal.timeout(30_000),
    });
    const body = (await response.json()) as { count?: number };
    return { status: response.status, ms: performance.now() - started, ...(typeof body.count === 'number' ? { count: body.count } : {}) };
  } catch {
    return { status: 0, ms: performance.now() - started };
  }
}

/** `clients` loops against `url`, each sending until `more()` is false or its host went away. */
export async function clientsOn(url: string, clients: number, more: (sent: number) => boolean, answers: Answer[]): Promise<void> {
  await Promise.all(
    Array.from({ length: clients }, async () => {
      for (let sent = 0; more(sent); sent++) {
        const answer = await increment(url);
        answers.push(answer);
        if (answer.status === 0) return; // its host is gone
      }
    }),
  );
}

/** The counter stream's (revision, sequence) pairs in revision order, read from the store itself. */
export async function counterStream(store: { pg: pg.Pool; schema: string } | { redis: Redis; prefix: string }): Promise<Array<{ revision: number; sequence: number }>> {
  if ('pg' in store) {
    const rows = await store.pg.query<{ revision: string; sequence: string }>(
      `SELECT revision::text, sequence::text FROM "${store.schema}".app_events WHERE stream_id = $1 ORDER BY app_events.revision`,
      [COUNTER_STREAM_ID],
    );
    return rows.rows.map((r) => ({ revision: Number(r.revision), sequence: Number(r.sequence) }));
  }
  const sequences = await store.redis.lrange(`${store.prefix}stream:${COUNTER_STREAM_ID}`, 0, -1);
  return sequences.map((s, i) => ({ revision: i + 1, sequence: Number(s) }));
}
