/** A commit's announcement read back as the view it stands for; anything else is a mere wake-up. */
import { describe, expect, it } from 'vitest';
import { encodeCommittedEvents } from '../../contract/committed-events.ts';
import { COUNTER_STREAM_ID } from '../domain/counter.ts';
import { testCounterDeps } from '../testing.ts';
import { announcedView } from './announcement.ts';
import { executeCounterCommand } from './execute-command.ts';

describe('announcedView', () => {
  it('reads the committed events back as the view the command answered', async () => {
    const deps = testCounterDeps();
    await executeCounterCommand(deps, { type: 'increment', amount: 2 });
    const view = await executeCounterCommand(deps, { type: 'decrement', amount: 1 });
    const newest = deps.platform.events.readStream(COUNTER_STREAM_ID, { direction: 'backward', limit: 5 });
    expect(announcedView(encodeCommittedEvents(COUNTER_STREAM_ID, newest), true)).toEqual(view);
  });

  it('takes nothing else for a view: other text, another stream, a gap, an event that does not decode', async () => {
    const deps = testCounterDeps();
    for (let i = 0; i < 3; i++) await executeCounterCommand(deps, { type: 'increment', amount: 1 });
    const newest = deps.platform.events.readStream(COUNTER_STREAM_ID, { direction: 'backward', limit: 5 });
    expect(announcedView('not json', true)).toBeUndefined();
    expect(announcedView('{"view":{}}', true)).toBeUndefined();
    expect(announcedView(encodeCommittedEvents('other', newest), true)).toBeUndefined();
    expect(announcedView(encodeCommittedEvents(COUNTER_STREAM_ID, [newest[0]!, newest[2]!]), true)).toBeUndefined();
    expect(announcedView(encodeCommittedEvents(COUNTER_STREAM_ID, [{ ...newest[0]!, payload: '{' }]), true)).toBeUndefined();
    expect(announcedView(encodeCommittedEvents(COUNTER_STREAM_ID, []), true)).toBeUndefined();
  });
});
