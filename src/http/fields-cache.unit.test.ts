/** FieldsCache with a stand-in for wasi:http `fields`: what is built, cloned and dropped. */
import { describe, expect, it } from 'vitest';
import { FieldsCache } from './fields-cache.ts';

class FakeFields {
  disposed = false;
  readonly key: string;
  readonly cloneOf: FakeFields | undefined;
  constructor(key: string, cloneOf?: FakeFields) {
    this.key = key;
    this.cloneOf = cloneOf;
  }
  clone(): FakeFields {
    if (this.disposed) throw new Error('clone of a dropped resource');
    return new FakeFields(this.key, this);
  }
  [Symbol.dispose](): void {
    this.disposed = true;
  }
}

function setup(capacity = 4) {
  const cache = new FieldsCache<FakeFields>(capacity);
  let built = 0;
  const get = (key: string) =>
    cache.get(key, () => {
      built++;
      return new FakeFields(key);
    });
  return { get, built: () => built };
}

describe('FieldsCache', () => {
  it('builds a head seen once, and hands out clones of a template from its second time on', () => {
    const { get, built } = setup();
    const first = get('a');
    expect(first.cloneOf).toBeUndefined();
    const second = get('a');
    const third = get('a');
    expect(built()).toBe(2);
    expect(second.cloneOf).toBeDefined();
    expect(third.cloneOf).toBe(second.cloneOf);
    expect([first.key, second.key, third.key]).toEqual(['a', 'a', 'a']);
    // Never the template itself: the caller hands its fields over to an outgoing-response.
    expect(second).not.toBe(second.cloneOf);
  });

  it('keeps heads apart', () => {
    const { get } = setup();
    for (const key of ['a', 'b', 'a', 'b']) get(key);
    expect(get('a').key).toBe('a');
    expect(get('b').key).toBe('b');
  });

  it('drops the oldest template when full', () => {
    const { get, built } = setup(2);
    const templates = ['a', 'b', 'c'].map((key) => {
      get(key);
      return get(key).cloneOf!;
    });
    expect(templates.map((t) => t.disposed)).toEqual([true, false, false]);
    const before = built();
    expect(get('a').cloneOf).toBeUndefined(); // seen once again, built afresh
    expect(built()).toBe(before + 1);
    expect(get('c').cloneOf).toBe(templates[2]);
  });

  it('never keeps a template for heads that do not repeat', () => {
    const { get, built } = setup(2);
    for (let i = 0; i < 10; i++) expect(get(`session=${i}`).cloneOf).toBeUndefined();
    expect(built()).toBe(10);
  });

  it('passes on a failure to build, caching nothing', () => {
    const cache = new FieldsCache<FakeFields>(4);
    const failing = () => {
      throw new Error('forbidden header');
    };
    expect(() => cache.get('bad', failing)).toThrow('forbidden header');
    expect(() => cache.get('bad', failing)).toThrow('forbidden header');
    expect(cache.get('bad', () => new FakeFields('bad')).cloneOf).toBeUndefined();
  });
});
