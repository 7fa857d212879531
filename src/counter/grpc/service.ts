/**
 * counter.v1.CounterService: every command goes through the shared `executeCounterCommand`, its
 * input read from the request message by the command table's rules (messages.ts). The methods
 * are the proto's (proto-first): a new command gets its rpc here.
 * WatchCounter is not here: the host's stream relay holds it (watch-relay.ts).
 */
import { AppError } from '../../errors.ts';
import type { CounterService } from '../../gen/counter_pb.js';
import type { CallContext, ServiceImpl } from '../../grpc/service.ts';
import type { CounterCommand } from '../domain/counter.ts';
import { ANYONE_ANONYMOUS, type CounterSurfaceDeps } from '../write-access.ts';
import { executeCounterCommand } from '../application/execute-command.ts';
import { getCounterView } from '../application/get-view.ts';
import { commandOfChange, commandOfMessage, toProtoView, toStreamReply } from './messages.ts';
import { profileMark } from '../../platform/profile.ts';

export function counterServiceImpl(deps: CounterSurfaceDeps): Omit<ServiceImpl<typeof CounterService>, 'watchCounter'> {
  const access = deps.writeAccess ?? ANYONE_ANONYMOUS;
  /** Runs `command` for the call's sender (its session cookie as metadata): UNAUTHENTICATED when COUNTER_WRITES needs one it lacks. */
  const run = async (ctx: CallContext, command: CounterCommand) => executeCounterCommand(deps, command, await access.sender(ctx.metadata));
  return {
    async getCounterView() {
      return toProtoView(getCounterView(deps));
    },
    async increment(input, ctx) {
      GUEST_PROFILE: profileMark('gRPC routing, framing, decode');
      const view = toProtoView(await run(ctx, commandOfMessage('increment', input)));
      GUEST_PROFILE: profileMark('view to protobuf');
      return view;
    },
    async decrement(input, ctx) {
      return toProtoView(await run(ctx, commandOfMessage('decrement', input)));
    },
    async reset(input, ctx) {
      return toProtoView(await run(ctx, commandOfMessage('reset', input)));
    },
    async applyChanges(inputs, ctx) {
      // Read the whole stream first: one over the message limit is refused before anything commits.
      const changes = [];
      for await (const change of inputs) changes.push(commandOfChange(change));
      if (changes.length === 0) throw new AppError('validation', 'ApplyChanges needs at least one change');
      const sender = await access.sender(ctx.metadata);
      let view;
      for (const command of changes) {
        if (ctx.done) break;
        view = await executeCounterCommand(deps, command, sender);
      }
      return toProtoView(view ?? getCounterView(deps));
    },
    async *interact(inputs, ctx) {
      for await (const message of inputs) {
        const action = message.action;
        if (action.case === 'change') yield toStreamReply(await run(ctx, commandOfChange(action.value)));
        else if (action.case === 'watch') yield toStreamReply(getCounterView(deps));
        else throw new AppError('validation', 'each Interact message must set watch or change');
      }
    },
  };
}
