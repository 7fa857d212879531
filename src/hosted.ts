/**
 * Entry point of the hosted component (world `hosted`): the application over the WIT imports
 * the Node host implements.
 */
import { getEnvironment } from 'wasi:cli/environment@0.2.12';
import { buildApp } from './app.ts';
import { parseConfig } from './config.ts';
import { createIncomingHandler } from './http/handler.ts';
import { hostedPlatform } from './platform/hosted/platform.ts';

const platform = hostedPlatform();
let app: ReturnType<typeof buildApp> | undefined;

/** Built on first use: the environment is only readable once the host runs the component. */
function application(): ReturnType<typeof buildApp> {
  app ??= buildApp(platform, parseConfig(getEnvironment()));
  return app;
}

export const incomingHandler = createIncomingHandler(
  (request) => application().fetch(request),
  (error) => platform.logger.log('error', 'request failed before a response', { code: 'internal', error: String(error) }),
);
