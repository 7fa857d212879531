/**
 * Real nginx as a child process for end-to-end tests: a temp prefix directory holding its
 * configuration, pid file, logs and temp paths; a self-signed certificate made with the openssl
 * CLI; the server configuration taken from a documentation page's ```nginx block, so the test runs
 * exactly what the page tells operators to write.
 *
 *   const nginx = requireTool('nginx'), openssl = requireTool('openssl');
 *   const proxy = await startNginx(nginx.path, { openssl: openssl.path, http: configFromDoc(...) });
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { untilReady } from './child-output.ts';
import { ROOT, tempDataDir } from './host-process.ts';

export interface NginxProcess {
  /** The self-signed certificate (PEM) clients must trust; valid for 127.0.0.1. */
  readonly certificate: string;
  readonly certificatePath: string;
  readonly keyPath: string;
  readonly output: string[];
  stop(): Promise<void>;
}

/** The page's only ```nginx fenced block. */
export function nginxBlockOf(page: string): string {
  const blocks = [...readFileSync(join(ROOT, page), 'utf8').matchAll(/^```nginx\n([\s\S]*?)^```$/gm)].map((m) => m[1] ?? '');
  if (blocks.length !== 1) throw new Error(`${page} should hold exactly one nginx block, found ${blocks.length}`);
  return blocks[0]!;
}

/** A key and a certificate for 127.0.0.1, valid one day, in `dir`. */
function selfSignedCertificate(openssl: string, dir: string): { certificatePath: string; keyPath: string } {
  const certificatePath = join(dir, 'cert.pem');
  const keyPath = join(dir, 'key.pem');
  execFileSync(
    openssl,
    ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1'].concat([
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      keyPath,
      '-out',
      certificatePath,
    ]),
    { stdio: 'ignore' },
  );
  return { certificatePath, keyPath };
}

/**
 * Starts nginx in the foreground with `http` (given the certificate paths) inside its `http` block.
 * Resolves once the worker runs, i.e. once the listening sockets are open.
 */
export async function startNginx(nginx: string, options: { openssl: string; http: (tls: { certificatePath: string; keyPath: string }) => string }): Promise<NginxProcess> {
  const prefix = tempDataDir('nginx-');
  for (const dir of ['logs', 'temp']) mkdirSync(join(prefix, dir));
  const tls = selfSignedCertificate(options.openssl, prefix);
  const temp = (name: string) => `${name}_temp_path ${join(prefix, 'temp', name)};`;
  const conf = [
    // As root nginx would run its worker as nobody, which cannot enter this private temp directory.
    process.getuid?.() === 0 ? 'user root;' : '',
    `pid ${join(prefix, 'nginx.pid')};`,
    'error_log stderr notice;',
    'worker_processes 1;',
    'events { worker_connections 256; }',
    'http {',
    `  access_log off;`,
    `  ${temp('client_body')} ${temp('proxy')} ${temp('fastcgi')} ${temp('uwsgi')} ${temp('scgi')}`,
    options.http(tls),
    '}',
  ].join('\n');
  const confPath = join(prefix, 'nginx.conf');
  writeFileSync(confPath, conf);
  const child = spawn(nginx, ['-p', prefix, '-c', confPath, '-e', 'stderr', '-g', 'daemon off;'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await untilReady(child, output, { name: 'nginx', ready: (line) => line.includes('start worker process'), timeoutMs: 20_000 });
  return {
    certificate: readFileSync(tls.certificatePath, 'utf8'),
    ...tls,
    output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      // SIGTERM: nginx's fast shutdown.
      child.kill('SIGTERM');
      await exited;
    },
  };
}
