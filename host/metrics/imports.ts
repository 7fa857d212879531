/**
 * Times the guest's calls of the project's own WIT imports (`app:platform/*`): one histogram
 * observation per call (its count is the call count) and one counter increment per failure.
 * A function that answers synchronously (SQLite) still answers synchronously: a Promise where
 * the guest expects a value would break the call. WASI imports (streams, clocks, poll) are left
 * alone: they are called per body chunk and per timer, and their cost is the guest's, not a
 * dependency's. Resource methods (a lease's append, a subscription's next) are timed on their
 * class's prototype: each host builds its own classes, so no other host is affected.
 */
import type { HostMetrics } from './registry.ts';

const OWN_PACKAGE = 'app:platform/';

type AnyFunction = (...args: unknown[]) => unknown;

const isClass = (value: AnyFunction): boolean => Function.prototype.toString.call(value).startsWith('class');

function timed(name: string, fn: AnyFunction, metrics: HostMetrics): AnyFunction {
  const latency = metrics.importSeconds.labels(name);
  const errors = metrics.importErrors.labels(name);
  return function (this: unknown, ...args) {
    const started = performance.now();
    const done = () => latency.observe((performance.now() - started) / 1000);
    let result: unknown;
    try {
      result = fn.apply(this, args);
    } catch (error) {
      done();
      errors.inc();
      throw error;
    }
    if (!(result instanceof Promise)) {
      done();
      return result;
    }
    return result.then(
      (value: unknown) => (done(), value),
      (error: unknown) => {
        done();
        errors.inc();
        throw error;
      },
    );
  };
}

/** Times the string-named methods of a resource class in place (labels `interface#Class.method`). */
function timeMethods(prefix: string, resource: AnyFunction, metrics: HostMetrics): AnyFunction {
  const prototype = resource.prototype as Record<string, unknown>;
  for (const name of Object.getOwnPropertyNames(prototype)) {
    const method = Object.getOwnPropertyDescriptor(prototype, name)?.value;
    if (name === 'constructor' || typeof method !== 'function') continue;
    prototype[name] = timed(`${prefix}.${name}`, method as AnyFunction, metrics);
  }
  return resource;
}

/** `imports` with every function of every `app:platform/*` interface timed (labels: `interface#function`). */
export function instrumentImports(imports: Record<string, unknown>, metrics: HostMetrics): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [iface, members] of Object.entries(imports)) {
    if (!iface.startsWith(OWN_PACKAGE) || typeof members !== 'object' || members === null) {
      out[iface] = members;
      continue;
    }
    const wrapped: Record<string, unknown> = {};
    for (const [name, member] of Object.entries(members)) {
      if (typeof member !== 'function') wrapped[name] = member;
      else if (!isClass(member as AnyFunction)) wrapped[name] = timed(`${iface}#${name}`, member as AnyFunction, metrics);
      else wrapped[name] = timeMethods(`${iface}#${name}`, member as AnyFunction, metrics);
    }
    out[iface] = wrapped;
  }
  return out;
}
