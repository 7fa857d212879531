/**
 * Benchmark target (b): the same component served the stock way on Node — preview2-shim's
 * HTTPServer, as `jco serve` does — with a synchronous (non-JSPI) transpile and the project's
 * imports mapped to synchronous SQLite implementations. With `--floor`, target (e): the floor
 * component (bench/http/floor/minimal.ts) served the same way.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = join(import.meta.dirname, '..', '..');
const floor = process.argv.includes('--floor');
const out = join(root, 'build', floor ? 'bench-stock-floor' : 'bench-stock');
const platformDir = join(import.meta.dirname, 'stock-platform');
const wasm = join(root, 'build', floor ? 'floor' : 'hosted', 'component.wasm');
const maps = ['types', 'event-store', 'stream-lease', 'projection-store', 'key-value', 'pubsub', 'password-hashing', 'mail', 'erasure'].flatMap((i) => [
  '--map',
  `app:platform/${i}=${pathToFileURL(join(platformDir, `${i}.js`)).href}`,
]);
// Transpiled again whenever the component or the import maps change.
const stamp = createHash('sha256').update(readFileSync(wasm)).update(maps.join(' ')).digest('hex');
const stampFile = join(out, '.stamp');
if (!existsSync(join(out, 'component.js')) || !existsSync(stampFile) || readFileSync(stampFile, 'utf8') !== stamp) {
  rmSync(out, { recursive: true, force: true });
  execFileSync(join(root, 'node_modules', '.bin', 'jco'), ['transpile', wasm, '-o', out, '--name', 'component', '--quiet', '--no-typescript', ...maps], { stdio: 'inherit' });
  writeFileSync(stampFile, stamp);
}
process.env.TRANSPORT ??= 'http';
// The package's types describe the browser build; on Node the http module also exports HTTPServer.
const { HTTPServer } = (await import('@bytecodealliance/preview2-shim/http')) as unknown as {
  HTTPServer: new (handler: unknown) => { listen(port: number, host: string): void };
};
const { _setEnv } = await import('@bytecodealliance/preview2-shim/cli');
_setEnv({ TRANSPORT: 'http', REALTIME: 'local', APP_RUNTIME: 'preview2-shim' });
const component = (await import(pathToFileURL(join(out, 'component.js')).href)) as { incomingHandler: { handle: unknown } };
const server = new HTTPServer(component.incomingHandler);
const port = Number(process.env.PORT ?? 3000);
server.listen(port, '127.0.0.1');
console.log(JSON.stringify({ code: 'host_listening', port }));
