/**
 * counter.v1.CounterService: every command goes through the shared `executeCounterCommand`, its
 * input read from the request message by the command table's rules (messages.ts). The methods
 * are the proto's (proto-first): a new command gets its rpc here.
 * WatchCounter is not here: the host's stream relay holds it (watch-relay.ts).
 */
import { AppError } from '../../errors.ts';
import type { CounterService } from '../../gen/counter_pb.js';
import type { ServiceImpl } from '../../grpc/service.ts';
import type { CounterDeps } from '../application/deps.ts';
import { executeCounterCommand } from '../application/execute-command.ts';
import { getCounterView } from '../application/get-view.ts';
import { commandOfChange, commandOfMessage, toProtoView, toStreamReply } from './messages.ts';
import { profileMark } from '../../platform/profile.ts';

export function counterServiceImpl(deps: CounterDeps): Omit<ServiceImpl<typeof CounterService>, 'watchCounter'> {
  return {
    async getCounterView() {
      return toProtoView(getCounterView(deps));
    },
    async increment(input) {
      GUEST_PROFILE: profileMark('gRPC routing, framing, decode');
      const view = toProtoView(await executeCounterCommand(deps, commandOfMessage('increment', input)));
      GUEST_PROFILE: profileMark('view to protobuf');
      return view;
    },
    async decrement(input) {
      return toProtoView(await executeCounterCommand(deps, commandOfMessage('decrement', input)));
    },
    async reset(input) {
      return toProtoView(await executeCounterCommand(deps, commandOfMessage('reset', input)));
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
