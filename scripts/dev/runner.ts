/**
 * `npm run dev`: builds, serves through the front (front.ts), watches src/, static/, wit/ and
 * host/, and after each batch of saves does only what they need (changes.ts): a build whose
 * unchanged steps are skipped, then a restart of the host if the component changed or host/ did.
 * A failed build leaves the last good one serving and shows its error in the terminal and on the
 * open pages; a new host serving reloads them.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { transpiledDir } from '../component/pipeline.ts';
import type { DevArguments } from './arguments.ts';
import { Builder } from './builder.ts';
import { type Batch, needsOf, watchSources } from './changes.ts';
import { DevEvents } from './events.ts';
import { type Front, startFront, type Upstream } from './front.ts';
import { DevHost } from './host-process.ts';

/** Saved paths kept for the next cycle at most (beyond, it does everything). */
const MAX_PATHS = 1_000;
/** How long a request waits for a restarting host before it gets the "not serving" page. */
const UPSTREAM_WAIT_MS = 60_000;

interface Work {
  paths: string[];
  since: number;
  build: boolean;
  restart: boolean;
  wit: boolean;
  /** More paths changed than are kept: everything is done, the build process renewed too. */
  overflow?: boolean;
  /** The build at start. */
  initial?: boolean;
}

export interface DevRunner {
  readonly front: Front;
  close(): Promise<void>;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function deferred(): { promise: Promise<void>; open(): void } {
  let open = () => {};
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

export async function startDev(root: string, args: DevArguments, print: (line: string) => void): Promise<DevRunner> {
  const events = new DevEvents();
  const builder = new Builder(root);
  /** Why the last build failed (cleared by the next good one) and why no host serves. */
  let buildError: string | undefined;
  let hostFailure: string | undefined;
  let closing = false;
  /** Closed while the host restarts: requests wait at it. */
  let gate: ReturnType<typeof deferred> | undefined = deferred();

  const publish = (options: { newGeneration?: boolean } = {}) => {
    const problems = [buildError, hostFailure].filter((p) => p !== undefined);
    events.publish(problems.length > 0 ? { state: 'failed', message: problems.join('\n\n') } : { state: 'ok' }, options);
  };

  const host = new DevHost(root, args, (message) => {
    hostFailure = message;
    print(`dev: ${message.split('\n', 1)[0]}; it starts again at the next save`);
    publish();
  });

  const upstream = async (): Promise<Upstream> => {
    const waiting = gate;
    if (waiting) await Promise.race([waiting.promise, new Promise((resolve) => setTimeout(resolve, UPSTREAM_WAIT_MS).unref())]);
    return host.address ?? { failure: hostFailure ?? buildError ?? 'the host is starting' };
  };

  const restartHost = async (): Promise<number | undefined> => {
    gate ??= deferred();
    const started = performance.now();
    await host.stop();
    const outcome = await host.start();
    // The next restart finds a host process with its modules loaded.
    host.prepare();
    if (outcome.ok) {
      hostFailure = undefined;
      print(`dev: the host serves http://${args.config.host}:${front.port} (behind it on port ${outcome.port}, started in ${seconds(outcome.ms)})`);
      // Before the gate opens: the pages the waiting requests get already carry the new generation.
      publish({ newGeneration: true });
    } else {
      hostFailure = outcome.message;
      print(`dev: ${outcome.message}`);
      publish();
    }
    gate.open();
    gate = undefined;
    return outcome.ok ? performance.now() - started : undefined;
  };

  const cycle = async (work: Work): Promise<void> => {
    if (work.overflow) Object.assign(work, { build: true, restart: true });
    // A change to a host/ file that the build itself reads needs a fresh build worker, and a build.
    const buildReads = await builder.hostInputs().catch(() => new Set<string>());
    if (work.overflow || work.paths.some((path) => buildReads.has(join(root, path)))) {
      await builder.renew();
      work.build = true;
    }
    // The loaded host process holds the old host/ modules.
    if (work.restart) await host.discardSpare();
    let restart = work.restart || host.address === undefined;
    let buildMs = 0;
    let ranComponentize = false;
    if (work.build) {
      events.publish({ state: 'building' });
      const outcome = await builder.build();
      buildMs = outcome.ms;
      if (outcome.ok) {
        buildError = undefined;
        ranComponentize = outcome.ran.some((step) => step.endsWith(': componentize'));
        if (outcome.ran.some((step) => step.endsWith(': transpile'))) restart = true;
        else print(work.paths.length === 0 ? 'dev: the build is up to date' : `dev: built in ${seconds(outcome.ms)}; the component did not change`);
      } else {
        buildError = outcome.error;
        print(`dev: the build failed after ${seconds(outcome.ms)}; ${host.address ? 'the last good build keeps serving' : 'no build to serve yet'}:\n${outcome.error}`);
        // Nothing built yet: the host cannot start until a build succeeds.
        if (!existsSync(join(transpiledDir(root, 'hosted'), 'component.js'))) restart = false;
      }
    }
    if (closing) return;
    if (restart) {
      const restartMs = await restartHost();
      if (restartMs !== undefined && work.paths.length > 0) {
        print(`dev: serving ${seconds(performance.now() - work.since)} after the save (build ${seconds(buildMs)}, restart ${seconds(restartMs)})`);
      }
    } else {
      publish();
    }
    // The first save after start finds the build's compilers warm (a cold componentize takes 3-6 times as long).
    if (work.initial && ranComponentize) print('dev: the build tools are warm (the first build componentized)');
    else if (work.initial) builder.warmUp((ms) => print(`dev: the build tools are warm (a throwaway componentize took ${seconds(ms)})`));
    if (work.wit) print('dev: wit/ changed: if its types changed, run npm run gen:wit-types (the type check and test/lint/wit-types fail until then)');
  };

  // Saves that arrive during a cycle are merged into the next one.
  let pending: Work | undefined = { paths: [], since: performance.now(), build: true, restart: true, wit: false, initial: true };
  let running: Promise<void> | undefined;
  const drain = async () => {
    while (pending) {
      const work = pending;
      pending = undefined;
      await cycle(work);
    }
    running = undefined;
  };
  const onBatch = (batch: Batch) => {
    const needs = batch.overflow ? { build: true, restart: true, wit: true } : needsOf(batch.paths);
    const paths = [...(pending?.paths ?? []), ...batch.paths];
    if (!needs.build && !needs.restart) return;
    print(`dev: ${batch.paths.length === 1 ? batch.paths[0] : `${batch.paths.length} files`} changed`);
    const merged: Work = pending ?? { paths: [], since: batch.since, build: false, restart: false, wit: false };
    pending = {
      paths: paths.slice(0, MAX_PATHS),
      overflow: merged.overflow || batch.overflow || paths.length > MAX_PATHS,
      since: Math.min(merged.since, batch.since),
      build: merged.build || needs.build,
      restart: merged.restart || needs.restart,
      wit: merged.wit || needs.wit,
    };
    running ??= drain();
  };

  const watcher = watchSources(root, onBatch);
  const front = await startFront({ host: args.config.host, port: args.config.port, upstream, events }).catch((error: unknown) => {
    watcher.close();
    throw error;
  });
  running = drain();

  return {
    front,
    async close() {
      closing = true;
      watcher.close();
      pending = undefined;
      await builder.renew(); // a build under way ends now
      await running;
      await host.close();
      await builder.renew();
      events.close();
      await front.close();
    },
  };
}
