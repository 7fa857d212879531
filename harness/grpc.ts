/**
 * gRPC clients for end-to-end tests: the real `grpcurl` binary, and @grpc/grpc-js with the
 * generated protobuf-es schemas (plus raw-byte calls for malformed and oversized messages).
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { create, fromBinary, toBinary, type DescMessage, type MessageInitShape, type MessageShape } from '@bufbuild/protobuf';
import { ROOT } from './host-process.ts';
import type { Tool } from './tools.ts';

export const PROTO = join(ROOT, 'proto', 'counter.proto');
export const SERVICE = 'counter.v1.CounterService';

export interface GrpcurlResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `grpcurl -plaintext <args> <target> <after…>` (after: a method, or `list`/`describe` and a symbol). */
export function grpcurl(tool: Tool, target: string, args: string[], ...after: string[]): Promise<GrpcurlResult> {
  // A hang guard, not a bound on speed: at load 25-35 on 2 cores one grpcurl run through
  // reflection (its process, the reflection stream's requests, then the call) took past 20 s.
  const timeoutMs = 90_000;
  return new Promise((resolve, reject) => {
    const child = spawn(tool.path, ['-plaintext', ...args, target, ...after], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`grpcurl ${[...args, ...after].join(' ')} timed out\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Parses grpcurl's output of several JSON messages (pretty-printed, one after another). */
export function jsonMessages(stdout: string): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < stdout.length; i++) {
    const ch = stdout[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === '{') {
      if (depth++ === 0) start = i;
    } else if (ch === '}' && --depth === 0) out.push(JSON.parse(stdout.slice(start, i + 1)) as Record<string, unknown>);
  }
  return out;
}

const serializer =
  <D extends DescMessage>(schema: D) =>
  (value: MessageInitShape<D>): Buffer =>
    Buffer.from(toBinary(schema, create(schema, value)));
const deserializer =
  <D extends DescMessage>(schema: D) =>
  (bytes: Buffer): MessageShape<D> =>
    fromBinary(schema, bytes);
const raw = (b: Buffer) => b;

/** A grpc-js client for CounterService methods by name, typed by the generated schemas. */
export class CounterClient {
  readonly client: grpc.Client;
  constructor(target: string) {
    this.client = new grpc.Client(target, grpc.credentials.createInsecure());
  }

  path(method: string): string {
    return `/${SERVICE}/${method}`;
  }

  unary<I extends DescMessage, O extends DescMessage>(
    method: string,
    input: I,
    output: O,
    value: MessageInitShape<I>,
    options: grpc.CallOptions = {},
    metadata = new grpc.Metadata(),
  ): Promise<MessageShape<O>> {
    return new Promise((resolve, reject) => {
      this.client.makeUnaryRequest(this.path(method), serializer(input), deserializer(output), value, metadata, options, (error, result) =>
        error ? reject(error) : resolve(result!),
      );
    });
  }

  /** A unary call with the request given as raw message bytes (the client frames them). */
  unaryRaw(method: string, bytes: Buffer, options: grpc.CallOptions = {}): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      this.client.makeUnaryRequest(this.path(method), raw, raw, bytes, new grpc.Metadata(), options, (error, result) => (error ? reject(error) : resolve(result!)));
    });
  }

  serverStream<I extends DescMessage, O extends DescMessage>(method: string, input: I, output: O, value: MessageInitShape<I>, options: grpc.CallOptions = {}) {
    return this.client.makeServerStreamRequest(this.path(method), serializer(input), deserializer(output), value, new grpc.Metadata(), options);
  }

  clientStream<I extends DescMessage, O extends DescMessage>(method: string, input: I, output: O, options: grpc.CallOptions = {}, metadata = new grpc.Metadata()) {
    let settle!: { resolve: (v: MessageShape<O>) => void; reject: (e: grpc.ServiceError) => void };
    const result = new Promise<MessageShape<O>>((resolve, reject) => (settle = { resolve, reject }));
    const call = this.client.makeClientStreamRequest(this.path(method), serializer(input), deserializer(output), metadata, options, (error, value) =>
      error ? settle.reject(error) : settle.resolve(value!),
    );
    return { call, result };
  }

  bidi<I extends DescMessage, O extends DescMessage>(method: string, input: I, output: O, options: grpc.CallOptions = {}, metadata = new grpc.Metadata()) {
    return this.client.makeBidiStreamRequest(this.path(method), serializer(input), deserializer(output), metadata, options);
  }

  close(): void {
    this.client.close();
  }
}

/** Collects a readable call's messages; `status` resolves with the final status. */
export function collect<T>(call: grpc.ClientReadableStream<T> | grpc.ClientDuplexStream<unknown, T>) {
  const messages: T[] = [];
  const waiters = new Set<() => void>();
  call.on('data', (m: T) => {
    messages.push(m);
    for (const w of waiters) w();
  });
  call.on('error', () => undefined);
  const status = new Promise<grpc.StatusObject>((resolve) => call.on('status', resolve));
  return {
    messages,
    status,
    /** Resolves with the first message (existing or future) that matches. */
    waitFor(match: (m: T) => boolean, timeoutMs = 10_000): Promise<T> {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = messages.find(match);
          if (found === undefined) return false;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching message within ${timeoutMs} ms (got ${messages.length})`));
        }, timeoutMs);
        if (!check()) waiters.add(check);
      });
    },
  };
}

export { grpc };
