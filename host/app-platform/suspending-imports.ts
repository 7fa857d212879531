/**
 * Which app:platform imports of the `hosted` world may wait: jco transpiles those as JSPI
 * suspending imports (scripts/build.ts), so a guest waiting on one suspends its own instance
 * instead of blocking the host; every other import must answer at once.
 *
 * The table is typed by jco's declarations of the WIT (src/contract/wit/): a function or resource
 * method added to an interface without a verdict here, or a verdict for one that is gone, fails
 * the type check; suspending-imports.unit.test.ts holds the interfaces to the world's imports.
 * `PlatformImports` types the host's import objects by it (host/guest/imports.ts): an import marked
 * `returns` that answers with a Promise fails the type check too.
 */
import type * as Erasure from '../../src/contract/wit/interfaces/app-platform-erasure.js';
import type * as EventStore from '../../src/contract/wit/interfaces/app-platform-event-store.js';
import type * as KeyValue from '../../src/contract/wit/interfaces/app-platform-key-value.js';
import type * as Mail from '../../src/contract/wit/interfaces/app-platform-mail.js';
import type * as PasswordHashing from '../../src/contract/wit/interfaces/app-platform-password-hashing.js';
import type * as ProjectionStore from '../../src/contract/wit/interfaces/app-platform-projection-store.js';
import type * as PubSub from '../../src/contract/wit/interfaces/app-platform-pubsub.js';
import type * as StreamLease from '../../src/contract/wit/interfaces/app-platform-stream-lease.js';
import type * as Types from '../../src/contract/wit/interfaces/app-platform-types.js';

export const PLATFORM_PACKAGE = 'app:platform';
export const PLATFORM_VERSION = '0.1.0';

/** `suspends`: the host may answer with a Promise (the guest's instance waits); `returns`: it answers at once. */
type Verdict = 'suspends' | 'returns';

/** Each interface of the package the `hosted` world imports, as jco declares it for a host. */
interface PlatformInterfaces {
  types: typeof Types;
  'event-store': typeof EventStore;
  'stream-lease': typeof StreamLease;
  'projection-store': typeof ProjectionStore;
  'key-value': typeof KeyValue;
  pubsub: typeof PubSub;
  'password-hashing': typeof PasswordHashing;
  mail: typeof Mail;
  erasure: typeof Erasure;
}

type IsFunction<T> = T extends (...args: never) => unknown ? true : false;

/** A verdict for every function of an interface, and for every method of its resources (classes). */
type Verdicts<Interface> = {
  [K in keyof Interface]: IsFunction<Interface[K]> extends true ? Verdict : Interface[K] extends { prototype: infer Instance } ? { [M in keyof Instance]: Verdict } : never;
};

export const PLATFORM_IMPORTS = {
  types: {},
  'event-store': {
    append: 'suspends',
    readStream: 'suspends',
    streamRevision: 'suspends',
    readAll: 'suspends',
    headSequence: 'suspends',
    countByType: 'suspends',
    removeStream: 'suspends',
    truncateBefore: 'suspends',
  },
  'stream-lease': {
    acquire: 'suspends',
    // The token is known once the lease is held.
    Lease: { token: 'returns', append: 'suspends', readNewest: 'suspends', appendAndEnd: 'suspends' },
  },
  'projection-store': { checkpoint: 'suspends', commit: 'suspends', getDocument: 'suspends', listDocuments: 'suspends' },
  'key-value': { get: 'suspends', set: 'suspends', take: 'suspends', increment: 'suspends', delete: 'suspends' },
  // A publish is handed to the broker and not waited for (pubsub-imports.ts): the command's answer never waits on a wake-up.
  pubsub: { publish: 'returns', subscribe: 'suspends', Subscription: { next: 'suspends' } },
  'password-hashing': { hash: 'suspends', verify: 'suspends' },
  mail: { send: 'suspends' },
  // It may wait for other readers of the store (host/storage/scrubber.ts).
  erasure: { scrub: 'suspends' },
} as const satisfies { [I in keyof PlatformInterfaces]: Verdicts<PlatformInterfaces[I]> };

type Table = typeof PLATFORM_IMPORTS;

/** Every resource of the package (its class's instance type as jco declares it). */
type Resources = {
  [I in keyof PlatformInterfaces]: {
    [K in keyof PlatformInterfaces[I]]: IsFunction<PlatformInterfaces[I][K]> extends true
      ? never
      : PlatformInterfaces[I][K] extends { prototype: infer Instance }
        ? Instance
        : never;
  }[keyof PlatformInterfaces[I]];
}[keyof PlatformInterfaces];

/**
 * An answer as the host gives it: a resource is the host's own class, checked on its own
 * (PlatformImports), also inside a record (`stream-lease.turn`).
 */
type Answer<R> = R extends Resources ? object : R extends readonly unknown[] ? R : R extends object ? { [K in keyof R]: Answer<R[K]> } : R;

/** A function as the host implements it under its verdict. */
type Implemented<F, V> = F extends (...args: infer A) => infer R ? (V extends 'suspends' ? (...args: A) => Answer<R> | Promise<Answer<R>> : (...args: A) => Answer<R>) : never;

/** What the host hands jco for the package: per interface, its functions and resource classes as the table allows. */
export type PlatformImports = {
  [I in keyof Table as `${typeof PLATFORM_PACKAGE}/${I}`]: {
    [K in keyof Table[I] & keyof PlatformInterfaces[I]]: Table[I][K] extends Verdict
      ? Implemented<PlatformInterfaces[I][K], Table[I][K]>
      : PlatformInterfaces[I][K] extends { prototype: infer Instance }
        ? abstract new (
            ...args: never
          ) => { [M in keyof Table[I][K] & keyof Instance]: Implemented<Instance[M], Table[I][K][M]> }
        : never;
  };
};

/** WIT spells names in kebab case; jco's declarations in camel case (`readNewest` ← `read-newest`). */
export const witName = (name: string): string => name.replace(/[A-Z]/g, (c, offset: number) => `${offset === 0 ? '' : '-'}${c.toLowerCase()}`);

/** The suspending imports in jco's `--async-imports` form: `app:platform/<interface>@<version>#<function>` or `#[method]<resource>.<method>`. */
export function suspendingPlatformImports(): string[] {
  const names: string[] = [];
  for (const [iface, members] of Object.entries(PLATFORM_IMPORTS)) {
    const prefix = `${PLATFORM_PACKAGE}/${iface}@${PLATFORM_VERSION}#`;
    for (const [name, verdict] of Object.entries(members as Record<string, Verdict | Record<string, Verdict>>)) {
      if (verdict === 'suspends') names.push(`${prefix}${witName(name)}`);
      else if (typeof verdict === 'object') {
        for (const [method, v] of Object.entries(verdict)) if (v === 'suspends') names.push(`${prefix}[method]${witName(name)}.${witName(method)}`);
      }
    }
  }
  return names;
}
