/** Stored-event encoding of counter events. */
import { describe, expect, it } from 'vitest';
import type { CounterEvent } from '../domain/counter.ts';
import { decodeEvent, encodeEvent } from './event-codec.ts';

describe('event codec', () => {
  it('round-trips every event type with the documented payloads', () => {
    const cases: [CounterEvent, string][] = [
      [{ type: 'incremented', amount: 3, value: 10 }, '{"amount":3,"value":10}'],
      [{ type: 'decremented', amount: 4, value: -4 }, '{"amount":4,"value":-4}'],
      [{ type: 'reset_performed', previous: -7 }, '{"previous":-7}'],
    ];
    for (const [event, payload] of cases) {
      const stored = encodeEvent(event);
      expect(stored).toEqual({ eventType: event.type, payload, metadata: '{"schema_version":1}' });
      expect(decodeEvent(stored)).toEqual(event);
    }
  });

  it('reads events stored before versions were recorded as version 1, and refuses a version it does not know', () => {
    expect(decodeEvent({ eventType: 'incremented', payload: '{"amount":3,"value":10}', metadata: '{}' })).toEqual({ type: 'incremented', amount: 3, value: 10 });
    for (const metadata of ['{"schema_version":2}', '{"schema_version":0}', '{"schema_version":"1"}', 'not json']) {
      expect(() => decodeEvent({ eventType: 'incremented', payload: '{"amount":3,"value":10}', metadata })).toThrow(expect.objectContaining({ code: 'internal' }));
    }
  });

  it('rejects unknown types and malformed payloads as internal errors', () => {
    for (const stored of [
      { eventType: 'exploded', payload: '{}' },
      { eventType: 'incremented', payload: 'not json' },
      { eventType: 'incremented', payload: '[1]' },
      { eventType: 'decremented', payload: '{"amount":1.5}' },
      { eventType: 'incremented', payload: '{"amount":1}' },
      { eventType: 'incremented', payload: '{"amount":1,"value":"2"}' },
      { eventType: 'incremented', payload: '{"amount":1,"value":2147483648}' },
      { eventType: 'reset_performed', payload: '{"amount":1}' },
    ]) {
      expect(() => decodeEvent({ ...stored, metadata: '{}' })).toThrow(expect.objectContaining({ code: 'internal', message: 'internal error' }));
    }
  });
});
