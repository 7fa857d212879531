/**
 * Typed service implementations: one function per method of a generated `GenService`, shaped by
 * the method kind. Every kind is normalised to "stream of inputs → stream of outputs" for the server.
 */
import type { DescMessage, DescMethod, DescService, MessageInitShape, MessageShape } from '@bufbuild/protobuf';
import { GrpcCode, GrpcError } from './status.ts';

/** What a handler knows about its call. */
export interface CallContext {
  /** Epoch ms when the client's `grpc-timeout` expires; undefined without a deadline. */
  readonly deadlineAt: number | undefined;
  /** True once the client went away, the deadline passed or the call ended. */
  readonly done: boolean;
  /** Milliseconds until the deadline (Infinity without one). */
  remainingMs(): number;
  /** The call's request metadata (HTTP/2 headers), e.g. the `cookie` of a session. */
  readonly metadata: Headers;
}

type MethodShape = { methodKind: DescMethod['methodKind']; input: DescMessage; output: DescMessage };
type In<M extends MethodShape> = MessageShape<M['input']>;
type Out<M extends MethodShape> = MessageInitShape<M['output']>;

export type MethodImpl<M extends MethodShape> = M['methodKind'] extends 'unary'
  ? (input: In<M>, ctx: CallContext) => Promise<Out<M>>
  : M['methodKind'] extends 'server_streaming'
    ? (input: In<M>, ctx: CallContext) => AsyncIterable<Out<M>>
    : M['methodKind'] extends 'client_streaming'
      ? (inputs: AsyncIterable<In<M>>, ctx: CallContext) => Promise<Out<M>>
      : (inputs: AsyncIterable<In<M>>, ctx: CallContext) => AsyncIterable<Out<M>>;

export type ServiceImpl<S extends DescService & { method: Record<string, MethodShape> }> = {
  [K in keyof S['method']]: MethodImpl<S['method'][K]>;
};

/** Any method as inputs → outputs. */
export type StreamHandler = (inputs: AsyncIterable<unknown>, ctx: CallContext) => AsyncIterable<unknown>;

export interface Route {
  readonly method: DescMethod;
  readonly handler: StreamHandler;
}

type AnyImpl = (input: never, ctx: CallContext) => Promise<unknown> | AsyncIterable<unknown>;

/** Routes keyed by HTTP path (`/package.Service/Method`) for the methods `impl` implements (a method served elsewhere is left out). */
export function routesOf<S extends DescService & { method: Record<string, MethodShape> }>(service: S, impl: Partial<ServiceImpl<S>>): Map<string, Route> {
  const routes = new Map<string, Route>();
  for (const method of service.methods) {
    const fn = (impl as unknown as Record<string, AnyImpl>)[method.localName];
    if (!fn) continue;
    routes.set(`/${service.typeName}/${method.name}`, { method, handler: normalise(method, fn) });
  }
  return routes;
}

function normalise(method: DescMethod, fn: AnyImpl): StreamHandler {
  const call = fn as (input: unknown, ctx: CallContext) => Promise<unknown> | AsyncIterable<unknown>;
  switch (method.methodKind) {
    case 'unary':
      return async function* (inputs, ctx) {
        yield await call(await single(inputs), ctx);
      };
    case 'server_streaming':
      return async function* (inputs, ctx) {
        yield* call(await single(inputs), ctx) as AsyncIterable<unknown>;
      };
    case 'client_streaming':
      return async function* (inputs, ctx) {
        yield await call(inputs, ctx);
      };
    case 'bidi_streaming':
      return (inputs, ctx) => call(inputs, ctx) as AsyncIterable<unknown>;
  }
}

/** Unary and server-streaming requests carry exactly one message. */
async function single(inputs: AsyncIterable<unknown>): Promise<unknown> {
  let first: unknown;
  let count = 0;
  for await (const input of inputs) {
    if (count++ === 0) first = input;
  }
  if (count !== 1) throw new GrpcError(GrpcCode.INVALID_ARGUMENT, `expected exactly one request message, got ${count}`);
  return first;
}
