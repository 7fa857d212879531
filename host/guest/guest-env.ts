/**
 * The environment the guest sees (wasi:cli/environment): the host's resolved settings plus the
 * application's own variables. The rest of the host's environment stays out of the guest.
 */
import { PASSED_TO_GUEST } from '../../src/contract/app-variables.ts';
import { GUEST_ENV } from '../../src/contract/environment.ts';
import type { HostConfig } from '../config.ts';
import { isLoopbackAddress } from '../net/cidr.ts';

export function guestEnvironment(config: HostConfig, env: NodeJS.ProcessEnv): Array<[string, string]> {
  const out: Array<[string, string]> = [
    [GUEST_ENV.runtime, 'node-host'],
    // This host serves HTTP/2 cleartext with response trailers on its port (host/http/server.ts).
    [GUEST_ENV.grpcSupported, 'true'],
    // The host holds SSE connections and asks the guest for frames (host/relay/).
    [GUEST_ENV.streamRelay, String(config.streamRelay === 'on')],
    ['TRANSPORT', config.transport],
    ['REALTIME', config.realtime],
    ['REDIS_CHANNEL', config.redisChannel],
    // Whether only this machine can reach the port: development-only features of the guest
    // (e.g. a callback bypass) require it. Absent under hosts that cannot tell.
    [GUEST_ENV.listenLoopbackOnly, String(isLoopbackAddress(config.host))],
    // This host sets x-app-client-address itself and drops a client's copy (host/net/client-address.ts):
    // only then may the guest believe it. wasmtime serve passes no such header, nor this variable.
    [GUEST_ENV.clientAddressHeader, 'trusted'],
  ];
  for (const [key, value] of Object.entries(env)) {
    if (value !== undefined && PASSED_TO_GUEST.some((re) => re.test(key))) out.push([key, value]);
  }
  return out;
}
