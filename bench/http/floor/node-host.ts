/**
 * Benchmark target (d): this project's Node host (JSPI, instance pool) serving the floor component
 * (minimal.ts, `node scripts/build.ts --variant floor`) instead of the service; takes the host's
 * flags (the benchmark's harness passes --port and --data-dir).
 */
import { startHost } from '../../../host/app.ts';
import { loadConfig } from '../../../host/config.ts';
import { jsonLogger } from '../../../host/log.ts';
import { transpiledDir } from '../../../scripts/component/pipeline.ts';

const root = new URL('../../..', import.meta.url).pathname;
const config = loadConfig(process.argv.slice(2), process.env);
const host = await startHost(
  config,
  process.env,
  jsonLogger(() => undefined),
  { componentDir: transpiledDir(root, 'floor') },
);
console.log(JSON.stringify({ code: 'host_listening', port: host.port }));
