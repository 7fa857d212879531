/** Entry of the pure-JS OAuth probe component (world `standalone`: runs on the Node host and under wasmtime). */
import { createIncomingHandler } from '../../src/http/handler.ts';
import { probeApp } from './probe-app.ts';
import { pureOps } from './pure-ops.ts';

const app = probeApp(pureOps);

export const incomingHandler = createIncomingHandler(
  (request) => app.fetch(request),
  (error) => console.log(JSON.stringify({ level: 'error', source: 'component', msg: 'probe failed', code: 'internal', error: String(error) })),
);
