/** Schema versions of stored records: unversioned records, upcasting step by step, refusals. */
import { describe, expect, it } from 'vitest';
import { eventMetadata, firstShape, readDocumentBody, readEventPayload, writeDocumentBody, type StoredShape } from './schema-version.ts';

/** A shape at version 3: v1 had `n`, v2 renamed it `amount`, v3 added `unit`. */
const shape: StoredShape = {
  name: 'test record',
  version: 3,
  upcasters: {
    1: ({ n, ...rest }) => ({ ...rest, amount: n }),
    2: (body) => ({ ...body, unit: 'each' }),
  },
};
const internal = expect.objectContaining({ code: 'internal', message: 'internal error' });

describe('readEventPayload()', () => {
  it('writes the current version into the metadata and reads it back unchanged', () => {
    expect(eventMetadata(shape)).toBe('{"schema_version":3}');
    expect(readEventPayload(shape, { payload: '{"amount":2,"unit":"each"}', metadata: eventMetadata(shape) })).toEqual({ amount: 2, unit: 'each' });
  });

  it('upcasts an older version through every step, and an unversioned record as version 1', () => {
    const current = { amount: 2, unit: 'each' };
    expect(readEventPayload(shape, { payload: '{"amount":2}', metadata: '{"schema_version":2}' })).toEqual(current);
    expect(readEventPayload(shape, { payload: '{"n":2}', metadata: '{"schema_version":1}' })).toEqual(current);
    expect(readEventPayload(shape, { payload: '{"n":2}', metadata: '{}' })).toEqual(current);
  });

  it('refuses a version newer than this build, a malformed version, a missing step and malformed JSON as internal errors', () => {
    for (const metadata of ['{"schema_version":4}', '{"schema_version":0}', '{"schema_version":1.5}', '[]', '']) {
      expect(() => readEventPayload(shape, { payload: '{}', metadata })).toThrow(internal);
    }
    expect(() => readEventPayload({ name: 'gap', version: 2 }, { payload: '{}', metadata: '{}' })).toThrow(internal);
    expect(() => readEventPayload(firstShape('x'), { payload: 'nope', metadata: '{}' })).toThrow(internal);
  });
});

describe('readDocumentBody()', () => {
  it('stores the version in the body and hands the reader the body without it', () => {
    const text = writeDocumentBody(shape, { amount: 1, unit: 'each' });
    expect(JSON.parse(text)).toEqual({ amount: 1, unit: 'each', schema_version: 3 });
    expect(readDocumentBody(shape, text)).toEqual({ amount: 1, unit: 'each' });
  });

  it('upcasts a document written before versions were recorded', () => {
    expect(readDocumentBody(shape, '{"n":7}')).toEqual({ amount: 7, unit: 'each' });
    expect(() => readDocumentBody(shape, '{"n":7,"schema_version":9}')).toThrow(internal);
  });
});
