/**
 * Entry point of the hosted component (world `hosted`): the application over the WIT imports
 * the Node host implements.
 */
import { getEnvironment } from 'wasi:cli/environment@0.2.12';
import { now } from 'wasi:clocks/monotonic-clock@0.2.12';
import { buildApp } from './app.ts';
import { parseConfig } from './config.ts';
import { AppError } from './errors.ts';
import { installBufferedResponse } from './http/buffered-response.ts';
import { createIncomingHandler } from './http/handler.ts';
import { AfterResponse, logAfterResponseFailure } from './platform/after-response.ts';
import { hostedPlatform } from './platform/hosted/platform.ts';
import { installProfileClock } from './platform/profile.ts';
import { profiledPlatform } from './platform/profiled-ports.ts';

// Responses with a complete body skip the ReadableStream on their way out (src/http/buffered-response.ts).
installBufferedResponse();
// The profiling build only (src/platform/profile.ts): the production bundle drops this line.
GUEST_PROFILE: installProfileClock(now, (line) => console.log(line));

const afterResponse = new AfterResponse();
let platform = hostedPlatform(afterResponse);
// The profiling build only: every port call between two phase marks (src/platform/profiled-ports.ts).
GUEST_PROFILE: platform = profiledPlatform(platform);
let app: ReturnType<typeof buildApp> | undefined;

/** Built on first use: the environment is only readable once the host runs the component. */
function application(): ReturnType<typeof buildApp> {
  app ??= buildApp(platform, parseConfig(getEnvironment()));
  return app;
}

/**
 * A configuration problem answers every request with the `configuration` envelope, whose
 * message names the variables (never values); the host's start-up probe reads it and stops.
 */
function handle(request: Request): Response | Promise<Response> {
  try {
    return application().fetch(request);
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== 'configuration') throw error;
    platform.logger.log('error', error.message, { code: 'config_invalid' });
    return Response.json({ error: { code: error.code, message: error.message } }, { status: 500, headers: { 'Cache-Control': 'no-store' } });
  }
}

export const incomingHandler = createIncomingHandler(
  handle,
  (error) => platform.logger.log('error', 'request failed before a response', { code: 'internal', error: String(error) }),
  afterResponse,
  logAfterResponseFailure(platform.logger),
  (reason) => platform.logger.log('warn', 'request target or Host refused', { code: 'request_target_invalid', reason }),
);
