/** The relay instruction header: what the host accepts from the guest. */
import { describe, expect, it } from 'vitest';
import { parseInstruction } from './headers.ts';

describe('parseInstruction', () => {
  it('reads every field, with a URI-encoded channel', () => {
    expect(parseInstruction('channel=app%3Bevents; mode=pubsub; interval=500; after=42')).toEqual({ channel: 'app;events', mode: 'pubsub', intervalMs: 500, after: 42 });
    expect(parseInstruction('channel=c; mode=off; after=0')).toEqual({ channel: 'c', mode: 'off', intervalMs: 500, after: 0 });
  });

  it('rejects anything malformed', () => {
    for (const bad of [
      '',
      'channel=c; mode=pubsub',
      'channel=c; mode=push; after=1',
      'channel=c; mode=polling; after=-1',
      'channel=; mode=off; after=1',
      'channel=c; mode=off; after=1; interval=5',
      'channel=%E0; mode=off; after=1',
      'mode',
    ]) {
      expect(parseInstruction(bad)).toBeUndefined();
    }
  });
});
