/** Given/when/then tests of the counter decider: given past events, when a command, then events or an error. */
import { describe, expect, it } from 'vitest';
import { AppError, type AppErrorCode } from '../../errors.ts';
import { decide, fold, initialState, type CounterCommand, type CounterEvent } from './counter.ts';
import { INT32_MAX, INT32_MIN } from './int32.ts';

function given(...history: CounterEvent[]) {
  const state = fold(initialState, history);
  return {
    when(command: CounterCommand) {
      return {
        // biome-ignore lint/suspicious/noThenProperty: the given/when/then test language; this object is never awaited.
        then(expected: CounterEvent[], expectedValue?: number) {
          const events = decide(command, state);
          expect(events).toEqual(expected);
          if (expectedValue !== undefined) expect(fold(state, events).value).toBe(expectedValue);
          // The newest event alone tells the state: a load needs no earlier one.
          expect(fold(initialState, events.slice(-1))).toEqual(fold(state, events));
        },
        thenRejects(code: AppErrorCode, message?: string | RegExp) {
          let caught: unknown;
          try {
            decide(command, state);
          } catch (error) {
            caught = error;
          }
          expect(caught).toBeInstanceOf(AppError);
          expect((caught as AppError).code).toBe(code);
          if (message !== undefined) expect((caught as AppError).message).toMatch(message);
        },
      };
    },
  };
}

const inc = (amount: number): CounterCommand => ({ type: 'increment', amount });
const dec = (amount: number): CounterCommand => ({ type: 'decrement', amount });
const reset: CounterCommand = { type: 'reset' };

describe('counter decider', () => {
  it('starts at zero', () => {
    expect(initialState.value).toBe(0);
  });

  it('increments', () => {
    given()
      .when(inc(3))
      .then([{ type: 'incremented', amount: 3, value: 3 }], 3);
  });

  it('decrements below zero', () => {
    given({ type: 'incremented', amount: 2, value: 2 })
      .when(dec(5))
      .then([{ type: 'decremented', amount: 5, value: -3 }], -3);
  });

  it('reset records the previous value and returns to zero', () => {
    given({ type: 'incremented', amount: 7, value: 7 }, { type: 'decremented', amount: 2, value: 5 })
      .when(reset)
      .then([{ type: 'reset_performed', previous: 5 }], 0);
  });

  it('reset at zero is still recorded', () => {
    given()
      .when(reset)
      .then([{ type: 'reset_performed', previous: 0 }], 0);
  });

  it('rejects zero and negative amounts with the exact public message', () => {
    for (const amount of [0, -1, INT32_MIN]) {
      given()
        .when(inc(amount))
        .thenRejects('validation', /^amount must be positive$/);
      given()
        .when(dec(amount))
        .thenRejects('validation', /^amount must be positive$/);
    }
  });

  it('rejects non-integer amounts', () => {
    for (const amount of [1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      given().when(inc(amount)).thenRejects('validation', 'amount must be an integer');
    }
  });

  it('rejects amounts beyond i32', () => {
    given()
      .when(inc(INT32_MAX + 1))
      .thenRejects('validation', /must not exceed/);
  });

  it('accepts the largest amount when the result fits', () => {
    given()
      .when(inc(INT32_MAX))
      .then([{ type: 'incremented', amount: INT32_MAX, value: INT32_MAX }], INT32_MAX);
  });

  it('refuses to overflow above i32', () => {
    given({ type: 'incremented', amount: INT32_MAX, value: INT32_MAX })
      .when(inc(1))
      .thenRejects('domain', /32-bit range/);
  });

  it('refuses to overflow below i32, but reaches the minimum exactly', () => {
    given({ type: 'decremented', amount: INT32_MAX, value: -INT32_MAX })
      .when(dec(1))
      .then([{ type: 'decremented', amount: 1, value: INT32_MIN }], INT32_MIN);
    given({ type: 'decremented', amount: INT32_MAX, value: -INT32_MAX }, { type: 'decremented', amount: 1, value: INT32_MIN })
      .when(dec(1))
      .thenRejects('domain', /32-bit range/);
  });
});
