/** The counter query. */
import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors.ts';
import { testCounterDeps } from '../testing.ts';
import { executeCounterCommand } from './execute-command.ts';
import { getCounterView } from './get-view.ts';

describe('getCounterView', () => {
  it('is empty before any command', () => {
    expect(getCounterView(testCounterDeps())).toEqual({ count: 0, latest_events: [], last_sequence: 0, realtime_enabled: true });
  });

  it('matches the view the last command returned', async () => {
    const deps = testCounterDeps();
    await executeCounterCommand(deps, { type: 'increment', amount: 4 });
    const last = await executeCounterCommand(deps, { type: 'decrement', amount: 1 });
    expect(getCounterView(deps)).toEqual(last);
  });

  it('turns store failures into a store AppError', () => {
    const deps = testCounterDeps();
    deps.platform.failNext('readStream');
    let caught: unknown;
    try {
      getCounterView(deps);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(AppError);
    expect((caught as AppError).code).toBe('store');
  });
});
