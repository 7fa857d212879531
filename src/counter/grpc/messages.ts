/** CounterView and changes between the application's shapes and the counter.v1 protobuf messages. */
import type { MessageInitShape } from '@bufbuild/protobuf';
import { AppError } from '../../errors.ts';
import { ChangeOperationSchema, type ChangeCounterRequest, type CounterViewSchema } from '../../gen/counter_pb.js';
import type { CounterCommand } from '../domain/counter.ts';
import type { CounterView } from '../application/view.ts';
import { domainCommand, inputFromValues } from '../command-input.ts';
import { commandSpec, isCommandName, type CommandName } from '../commands.ts';

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
      userId: event.user_id ?? '',
    })),
    lastSequence: BigInt(view.last_sequence),
    realtimeEnabled: view.realtime_enabled,
  };
}

/** A stream reply: the whole state and its position. */
export function toStreamReply(view: CounterView): { view: CounterViewInit; lastSequence: bigint } {
  return { view: toProtoView(view), lastSequence: BigInt(view.last_sequence) };
}

/**
 * The command a request message asks for: the table entry's fields read from the message by name
 * (a proto field carries the same name as the table's field) and checked by the same rules as
 * every other surface's input.
 */
export function commandOfMessage(name: CommandName, message: object): CounterCommand {
  const fields = message as Record<string, unknown>;
  const values = Object.fromEntries(Object.keys(commandSpec(name).input).map((field) => [field, fields[field]]));
  return domainCommand(name, inputFromValues(name, values));
}

/** ChangeOperation value → the command it names (`CHANGE_OPERATION_INCREMENT` → `increment`); UNSPECIFIED names none. */
export const COMMAND_BY_OPERATION: ReadonlyMap<number, CommandName> = new Map(
  ChangeOperationSchema.values.flatMap((value) => {
    const name = value.localName.toLowerCase();
    return isCommandName(name) ? [[value.number, name] as const] : [];
  }),
);

/** `operation must be increment, decrement or reset`. */
const UNKNOWN_OPERATION = `operation must be ${[...COMMAND_BY_OPERATION.values()].join(', ').replace(/, (?=[^,]*$)/, ' or ')}`;

/** The command a change names by its `operation` (ApplyChanges, Interact). */
export function commandOfChange(change: ChangeCounterRequest): CounterCommand {
  const name = COMMAND_BY_OPERATION.get(change.operation);
  if (name === undefined) throw new AppError('validation', UNKNOWN_OPERATION);
  return commandOfMessage(name, change);
}

/** A sequence from the wire (uint64) as a safe number for the application; larger is invalid. */
export function sequenceOf(value: bigint, name: string): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new AppError('validation', `${name} is out of range`);
  return Number(value);
}
