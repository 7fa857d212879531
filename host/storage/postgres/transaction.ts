/**
 * Transactions on one pooled connection. The connection is returned to the pool afterwards,
 * or discarded when it broke (lost socket, timeout, server shutdown) so the pool never hands
 * out a dead connection again.
 */
import type { Pool, PoolClient } from 'pg';
import { isUnavailable } from './errors.ts';

/**
 * Runs `work` in BEGIN ... COMMIT (READ COMMITTED, the server default). Throwing rolls back.
 * `keep(result)` false rolls back too but still returns the result (a "nothing to do" outcome).
 *
 * A COMMIT whose reply is lost (the connection dropped at that moment) surfaces as
 * `unavailable`: the transaction may or may not have committed, which no client can know.
 */
export async function transaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>, keep: (result: T) => boolean = () => true): Promise<T> {
  const client = await pool.connect();
  // While checked out, pg-pool listens for nothing: a socket error between two queries would
  // be an unhandled 'error' event (a crash). Remember it instead and discard the client.
  let broken: Error | undefined;
  const onError = (error: Error) => {
    broken ??= error;
  };
  client.on('error', onError);
  try {
    await client.query('BEGIN');
    let result: T;
    try {
      result = await work(client);
    } catch (error) {
      await rollback(client, error, (e) => (broken ??= e));
      throw error;
    }
    if (keep(result)) await client.query('COMMIT');
    else await rollback(client, undefined, (e) => (broken ??= e));
    return result;
  } catch (error) {
    if (isUnavailable(error)) broken ??= error instanceof Error ? error : new Error(String(error));
    throw error;
  } finally {
    client.removeListener('error', onError);
    // release(error) destroys the connection instead of pooling it.
    client.release(broken);
  }
}

async function rollback(client: PoolClient, cause: unknown, markBroken: (error: Error) => void): Promise<void> {
  if (cause !== undefined && isUnavailable(cause)) {
    // The connection itself failed: ROLLBACK cannot reach the server (which rolls back on its own
    // when the session ends), and the client will be discarded.
    markBroken(cause instanceof Error ? cause : new Error(String(cause)));
    return;
  }
  try {
    await client.query('ROLLBACK');
  } catch (error) {
    // The original error is the useful one; a connection that cannot roll back is not reused.
    markBroken(error instanceof Error ? error : new Error(String(error)));
  }
}
