/**
 * Entry point of the standalone component (world `standalone`), run by `wasmtime serve`: the same
 * application as the hosted entry, with storage in files on the preopened data directory
 * (src/platform/standalone/). `wasmtime serve` creates a fresh instance per request, so nothing
 * here is shared between requests except the files.
 */
import { getEnvironment } from 'wasi:cli/environment@0.2.12';
import { buildApp } from './app.ts';
import { parseConfig } from './config.ts';
import { AppError } from './errors.ts';
import { errorEnvelope, statusForCode } from './http/errors.ts';
import { installBufferedResponse } from './http/buffered-response.ts';
import { createIncomingHandler } from './http/handler.ts';
import { AfterResponse, logAfterResponseFailure } from './platform/after-response.ts';
import { standalonePlatform } from './platform/standalone/platform.ts';
import { standaloneConfig } from './platform/standalone/runtime-config.ts';

// Responses with a complete body skip the ReadableStream on their way out (src/http/buffered-response.ts).
installBufferedResponse();

const afterResponse = new AfterResponse();
const platform = standalonePlatform(afterResponse);
let app: ReturnType<typeof buildApp> | undefined;

/** Built on first use: the environment is only readable once the runtime runs the component. */
function application(): ReturnType<typeof buildApp> {
  app ??= buildApp(platform, standaloneConfig(parseConfig(getEnvironment())));
  return app;
}

/** A configuration this runtime cannot serve answers every request with the error, never half-works. */
function refusal(error: AppError): Response {
  platform.logger.log('error', 'configuration refused', { code: 'config_invalid', detail: error.message });
  return new Response(JSON.stringify(errorEnvelope(error)), {
    status: statusForCode(error.code),
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
  });
}

export const incomingHandler = createIncomingHandler(
  (request) => {
    let built: ReturnType<typeof buildApp>;
    try {
      built = application();
    } catch (error) {
      if (error instanceof AppError && error.code === 'configuration') return refusal(error);
      throw error;
    }
    return built.fetch(request);
  },
  (error) => platform.logger.log('error', 'request failed before a response', { code: 'internal', error: String(error) }),
  afterResponse,
  logAfterResponseFailure(platform.logger),
  (reason) => platform.logger.log('warn', 'request target or Host refused', { code: 'request_target_invalid', reason }),
);
