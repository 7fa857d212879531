/** The gRPC endpoint of the counter: CounterService plus server reflection, with the call limits. */
import { file_counter } from '../../gen/counter_pb.js';
import { CounterService } from '../../gen/counter_pb.js';
import { reflectionRoutes } from '../../grpc/reflection.ts';
import { createGrpcServer } from '../../grpc/server.ts';
import { routesOf } from '../../grpc/service.ts';
import type { CounterDeps } from '../application/deps.ts';
import { counterServiceImpl } from './service.ts';

/** 256 KiB per message, like the REST body limit. */
export const MAX_GRPC_MESSAGE_BYTES = 256 * 1024;
/** Most messages on one call (client streams: ApplyChanges, Interact). */
export const MAX_GRPC_MESSAGES = 100;

export function counterGrpcEndpoint(deps: CounterDeps): (request: Request) => Response {
  const routes = new Map([...routesOf(CounterService, counterServiceImpl(deps)), ...reflectionRoutes([file_counter])]);
  return createGrpcServer({
    routes,
    limits: { maxMessageBytes: MAX_GRPC_MESSAGE_BYTES, maxMessages: MAX_GRPC_MESSAGES },
    logger: deps.platform.logger,
    now: () => deps.platform.now(),
  });
}
