/**
 * counter.v1.CounterService: every command goes through the shared `executeCounterCommand`,
 * WatchCounter through the application's CounterWatch (the same machinery as the SSE stream).
 */
import { AppError } from '../../errors.ts';
import type { CounterService } from '../../gen/counter_pb.js';
import type { CallContext, ServiceImpl } from '../../grpc/service.ts';
import type { CounterDeps } from '../application/deps.ts';
import { executeCounterCommand } from '../application/execute-command.ts';
import { getCounterView } from '../application/get-view.ts';
import { CHECK_CLIENT, CounterWatch } from '../application/watch-counter.ts';
import { commandOfChange, sequenceOf, toProtoView, toStreamReply } from './messages.ts';

/** A watch waits at most this long at once, so cancellation and deadlines are noticed between waits. */
export const WATCH_SLICE_MS = 1_000;

export function counterServiceImpl(deps: CounterDeps): ServiceImpl<typeof CounterService> {
  return {
    async getCounterView() {
      return toProtoView(getCounterView(deps));
    },
    async increment(input) {
      return toProtoView(await executeCounterCommand(deps, { type: 'increment', amount: input.amount }));
    },
    async decrement(input) {
      return toProtoView(await executeCounterCommand(deps, { type: 'decrement', amount: input.amount }));
    },
    async reset() {
      return toProtoView(await executeCounterCommand(deps, { type: 'reset' }));
    },
    watchCounter(input, ctx) {
      return watchCounter(deps, sequenceOf(input.lastSequence, 'last_sequence'), ctx);
    },
    async applyChanges(inputs, ctx) {
      // Read the whole stream first: one over the message limit is refused before anything commits.
      const changes = [];
      for await (const change of inputs) changes.push(commandOfChange(change));
      if (changes.length === 0) throw new AppError('validation', 'ApplyChanges needs at least one change');
      let view;
      for (const command of changes) {
        if (ctx.done) break;
        view = await executeCounterCommand(deps, command);
      }
      return toProtoView(view ?? getCounterView(deps));
    },
    async *interact(inputs) {
      for await (const message of inputs) {
        const action = message.action;
        if (action.case === 'change') yield toStreamReply(await executeCounterCommand(deps, commandOfChange(action.value)));
        else if (action.case === 'watch') yield toStreamReply(getCounterView(deps));
        else throw new AppError('validation', 'each Interact message must set watch or change');
      }
    },
  };
}

/** First the current state, then one message per newer state, until the client leaves or the deadline. */
async function* watchCounter(deps: CounterDeps, start: number, ctx: CallContext) {
  const watch = new CounterWatch(deps, start);
  try {
    const current = getCounterView(deps);
    watch.delivered(current);
    yield toStreamReply(current);
    while (!ctx.done) {
      const result = await watch.next(Math.min(ctx.remainingMs(), WATCH_SLICE_MS));
      if (result instanceof AppError) throw result;
      // CHECK_CLIENT needs nothing here: the response's client probe notices a gone client.
      if (result && result !== CHECK_CLIENT) yield toStreamReply(result);
      // Yield to the event loop: the client probe and the deadline timer run between waits.
      else await deps.platform.sleep(0);
    }
  } finally {
    watch.close();
  }
}
