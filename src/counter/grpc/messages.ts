/** CounterView and changes between the application's shapes and the counter.v1 protobuf messages. */
import type { MessageInitShape } from '@bufbuild/protobuf';
import { AppError } from '../../errors.ts';
import { ChangeOperation, type ChangeCounterRequest, type CounterViewSchema } from '../../gen/counter_pb.js';
import type { CounterCommand } from '../domain/counter.ts';
import type { CounterView } from '../application/view.ts';

export type CounterViewInit = MessageInitShape<typeof CounterViewSchema>;

export function toProtoView(view: CounterView): CounterViewInit {
  return {
    count: view.count,
    latestEvents: view.latest_events.map((event) => ({
      sequence: BigInt(event.sequence),
      eventType: event.event_type,
      revision: BigInt(event.revision),
      payload: event.payload,
      recordedAt: event.recorded_at,
    })),
    lastSequence: BigInt(view.last_sequence),
    realtimeEnabled: view.realtime_enabled,
  };
}

/** A stream reply: the whole state and its position. */
export function toStreamReply(view: CounterView): { view: CounterViewInit; lastSequence: bigint } {
  return { view: toProtoView(view), lastSequence: BigInt(view.last_sequence) };
}

const COMMAND_BY_OPERATION: Record<number, ((amount: number) => CounterCommand) | undefined> = {
  [ChangeOperation.INCREMENT]: (amount) => ({ type: 'increment', amount }),
  [ChangeOperation.DECREMENT]: (amount) => ({ type: 'decrement', amount }),
  [ChangeOperation.RESET]: () => ({ type: 'reset' }),
};

/** The command a change names by its `operation` (ApplyChanges, Interact). */
export function commandOfChange(change: ChangeCounterRequest): CounterCommand {
  const build = COMMAND_BY_OPERATION[change.operation];
  if (!build) throw new AppError('validation', 'operation must be increment, decrement or reset');
  return build(change.amount);
}

/** A sequence from the wire (uint64) as a safe number for the application; larger is invalid. */
export function sequenceOf(value: bigint, name: string): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new AppError('validation', `${name} is out of range`);
  return Number(value);
}
