/**
 * The counter aggregate as a pure decider: commands in, events out, state folded from events.
 * No I/O here; the application layer loads, appends and publishes.
 */
import { AppError } from '../../errors.ts';
import { AMOUNT_MESSAGES, INT32_MAX, OUT_OF_RANGE_MESSAGE, isInt32 } from './int32.ts';

const COUNTER_AGGREGATE = 'counter';
const COUNTER_ID = 'global';
/** Stream id of the single global counter: `<aggregate>-<id>`. */
export const COUNTER_STREAM_ID = `${COUNTER_AGGREGATE}-${COUNTER_ID}`;

export type CounterCommand = { type: 'increment'; amount: number } | { type: 'decrement'; amount: number } | { type: 'reset' };

/**
 * Domain events; `type` is the stored event_type. An increment or decrement records the value it
 * left the counter at (`value`), as a reset implies 0: the newest event alone gives the current
 * state, so a load reads no further back (application/current-counter.ts).
 */
export type CounterEvent =
  | { type: 'incremented'; amount: number; value: number }
  | { type: 'decremented'; amount: number; value: number }
  | { type: 'reset_performed'; previous: number };

export type CounterEventType = CounterEvent['type'];

/** Every event type, in the order they were introduced; the type check refuses a list that misses one. */
export const COUNTER_EVENT_TYPES = ['incremented', 'decremented', 'reset_performed'] as const satisfies readonly CounterEventType[];
const everyEventListed: Exclude<CounterEventType, (typeof COUNTER_EVENT_TYPES)[number]> extends never ? true : never = true;
void everyEventListed;

export interface CounterState {
  readonly value: number;
}

export const initialState: CounterState = { value: 0 };

/** Rejects anything that is not a positive i32; the first failing rule gives the message. */
function validateAmount(amount: number): void {
  if (typeof amount !== 'number' || !Number.isInteger(amount)) {
    throw new AppError('validation', AMOUNT_MESSAGES.notInteger);
  }
  if (amount <= 0) throw new AppError('validation', AMOUNT_MESSAGES.notPositive);
  if (amount > INT32_MAX) throw new AppError('validation', AMOUNT_MESSAGES.tooLarge);
}

function checkedResult(value: number): number {
  if (!isInt32(value)) throw new AppError('domain', OUT_OF_RANGE_MESSAGE);
  return value;
}

/** Decides which events a command produces against the current state; throws AppError. */
export function decide(command: CounterCommand, state: CounterState): CounterEvent[] {
  switch (command.type) {
    case 'increment':
      validateAmount(command.amount);
      return [{ type: 'incremented', amount: command.amount, value: checkedResult(state.value + command.amount) }];
    case 'decrement':
      validateAmount(command.amount);
      return [{ type: 'decremented', amount: command.amount, value: checkedResult(state.value - command.amount) }];
    case 'reset':
      // Always recorded, even at 0: a reset is an auditable user action.
      return [{ type: 'reset_performed', previous: state.value }];
    default:
      return unreachable(command);
  }
}

/**
 * Applies one event: the state it records (`decide` computed it from the state before, so the
 * state before is not needed again). Total: events were validated by `decide` before they were stored.
 */
export function evolve(_state: CounterState, event: CounterEvent): CounterState {
  switch (event.type) {
    case 'incremented':
    case 'decremented':
      return { value: event.value };
    case 'reset_performed':
      return initialState;
    default:
      return unreachable(event);
  }
}

/** The `default` of a switch that covers every case: a new case makes the call a type error. */
export function unreachable(value: never): never {
  throw new AppError('internal', undefined, { cause: new Error(`unhandled case ${JSON.stringify(value)}`) });
}

/** Folds events from a starting state (replay). */
export function fold(state: CounterState, events: readonly CounterEvent[]): CounterState {
  return events.reduce(evolve, state);
}
