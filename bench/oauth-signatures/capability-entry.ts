/** Entry of the host-capability probe component (world `signatures-probe`, Node host only). */
import { createIncomingHandler } from '../../src/http/handler.ts';
import { capabilityOps } from './capability-ops.ts';
import { probeApp } from '../../harness/oauth-probe/probe-app.ts';

const app = probeApp(capabilityOps);

export const incomingHandler = createIncomingHandler(
  (request) => app.fetch(request),
  (error) => console.log(JSON.stringify({ level: 'error', source: 'component', msg: 'probe failed', code: 'internal', error: String(error) })),
);
