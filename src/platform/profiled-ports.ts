/**
 * The profiling build's ports (`node scripts/build.ts --variant profile`, `npm run bench -- profile`):
 * every call across the port boundary is wrapped in two phase marks (profile.ts), so an exchange's
 * profile shows the guest's own code (`guest code`, the time since the mark before) and each
 * import as the guest sees it (`import: <port>#<function>`, named as in src/platform/ports.ts:
 * `leases#acquire`, `lease#appendAndEnd`, `events#readStream`, …). The application carries no mark
 * of its own for them: src/hosted.ts wraps the ports in a statement labelled `GUEST_PROFILE:`, which
 * every other bundle drops.
 */
import { profileMark } from './profile.ts';
import type { Platform, StreamLease, Subscription } from './ports.ts';

const GUEST_CODE = 'guest code';

/** Runs one import call between its two marks. */
function across<T>(name: string, call: () => T): T {
  profileMark(GUEST_CODE);
  try {
    return call();
  } finally {
    profileMark(`import: ${name}`);
  }
}

/** Every function of a port object, each call marked (`<port>#<function>`); a port has functions only. */
function marked<T extends object>(port: string, functions: T): T {
  const out: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(functions)) {
    out[name] = typeof fn === 'function' ? (...args: unknown[]) => across(`${port}#${name}`, () => fn.apply(functions, args)) : fn;
  }
  return out as T;
}

function markedLease(lease: StreamLease): StreamLease {
  return {
    get token() {
      return lease.token;
    },
    newest: lease.newest,
    readNewest: (limit) => across('lease#readNewest', () => lease.readNewest(limit)),
    append: (expected, events) => across('lease#append', () => lease.append(expected, events)),
    appendAndEnd: (expected, events, newest, announce) => across('lease#appendAndEnd', () => lease.appendAndEnd(expected, events, newest, announce)),
    release: () => across('lease#release', () => lease.release()),
  };
}

function markedSubscription(subscription: Subscription): Subscription {
  return { next: (timeoutMs) => across('subscription#next', () => subscription.next(timeoutMs)), close: () => subscription.close() };
}

export function profiledPlatform(platform: Platform): Platform {
  return {
    ...platform,
    events: marked('events', platform.events),
    leases: {
      acquire: (streamId, waitMs, newest) => {
        const lease = across('leases#acquire', () => platform.leases.acquire(streamId, waitMs, newest));
        return lease && markedLease(lease);
      },
    },
    projections: marked('projections', platform.projections),
    keyValue: marked('keyValue', platform.keyValue),
    pubsub: {
      publish: (channel, message) => across('pubsub#publish', () => platform.pubsub.publish(channel, message)),
      subscribe: (channel) => markedSubscription(across('pubsub#subscribe', () => platform.pubsub.subscribe(channel))),
    },
    passwords: marked('passwords', platform.passwords),
    mail: marked('mail', platform.mail),
  };
}
