/**
 * A default start serves gRPC beside HTTP on one port, so the README's
 * `grpcurl -plaintext localhost:3000 list` works as written: reflection lists the service, and
 * the REST API answers on the same port.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type HostProcess } from '../../harness/host-process.ts';
import { grpcurl, SERVICE } from '../../harness/grpc.ts';
import { requireTool } from '../../harness/tools.ts';

const tool = requireTool('grpcurl');

describe.skipIf(!tool)('a host started without --transport', () => {
  let host: HostProcess;
  beforeAll(async () => {
    host = await startHost({ args: ['--shutdown-grace-ms', '500'] });
  });
  afterAll(async () => {
    await host?.stop();
  });

  it("answers the README's grpcurl list through reflection, and REST on the same port", async () => {
    expect(host.logs().find((line) => line['code'] === 'host_listening')).toMatchObject({ transport: 'both' });
    const services = await grpcurl(tool!, `localhost:${host.port}`, [], 'list');
    expect(services.code, services.stderr).toBe(0);
    expect(services.stdout).toContain(SERVICE);
    expect((await fetch(`${host.url}/api/counter/view`)).status).toBe(200);
  });
});
