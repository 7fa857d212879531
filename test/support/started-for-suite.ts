/**
 * A server (or any started thing with a `stop()`) for the tests of the enclosing `describe` block:
 * started before the first of them, stopped after the last, read through the getter returned
 * (what the shared suites, `passkeyCeremonySuite` and `signInMethodsSuite`, take as their target).
 */
import { afterAll, beforeAll } from 'vitest';

export function startedForSuite<S extends { stop(): Promise<unknown> }>(start: () => Promise<S>, timeoutMs: number): () => S {
  let started: S | undefined;
  beforeAll(async () => {
    started = await start();
  }, timeoutMs);
  afterAll(async () => {
    await started?.stop();
  });
  return () => {
    if (started === undefined) throw new Error('the suite server is read before it started');
    return started;
  };
}
