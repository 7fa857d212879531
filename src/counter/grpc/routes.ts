/** The gRPC endpoint of the counter: CounterService plus server reflection, with the call limits. */
import { file_counter } from '../../gen/counter_pb.js';
import { CounterService } from '../../gen/counter_pb.js';
import { reflectionRoutes } from '../../grpc/reflection.ts';
import { createGrpcServer } from '../../grpc/server.ts';
import { routesOf } from '../../grpc/service.ts';
import type { CounterSurfaceDeps } from '../write-access.ts';
import { counterServiceImpl } from './service.ts';
import { answerWatchPoll, openRelayedWatch, WATCH_COUNTER_PATH } from './watch-relay.ts';

/** 256 KiB per message, like the REST body limit. */
const MAX_GRPC_MESSAGE_BYTES = 256 * 1024;
/** Most messages on one call (client streams: ApplyChanges, Interact). */
const MAX_GRPC_MESSAGES = 100;

export interface CounterGrpcEndpoint {
  /** Serves a gRPC call. */
  serve(request: Request): Response | Promise<Response>;
  /** Answers the host's poll of a relayed WatchCounter; undefined when the request is not one. */
  answerPoll(request: Request): Response | undefined;
}

export function counterGrpcEndpoint(deps: CounterSurfaceDeps): CounterGrpcEndpoint {
  const routes = new Map([...routesOf(CounterService, counterServiceImpl(deps)), ...reflectionRoutes([file_counter])]);
  const limits = { maxMessageBytes: MAX_GRPC_MESSAGE_BYTES, maxMessages: MAX_GRPC_MESSAGES };
  const server = createGrpcServer({ routes, limits, logger: deps.platform.logger, now: () => deps.platform.now() });
  return {
    // WatchCounter is held by the host's relay (watch-relay.ts); a GET there is refused by the server as any other.
    serve: (request) => (request.method === 'POST' && new URL(request.url).pathname === WATCH_COUNTER_PATH ? openRelayedWatch(deps, request, limits) : server(request)),
    answerPoll: (request) => answerWatchPoll(deps, request),
  };
}
