/**
 * Real reverse proxies (nginx, Caddy) as child processes for end-to-end tests, terminating TLS
 * with a self-signed certificate the openssl CLI makes for 127.0.0.1. Each runs from a temp
 * directory holding its configuration, pid file, state and temp paths. Their site configuration
 * comes from a documentation page's fenced block, so the test runs what the page tells operators
 * to write.
 *
 *   const nginx = requireTool('nginx'), openssl = requireTool('openssl');
 *   const proxy = await startNginx(nginx.path, openssl.path, (tls) => documentedBlock('docs/x.md', 'nginx', 'nginx', [['listen 443 ssl;', …]]));
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { untilReady } from '../../harness/child-output.ts';
import { ROOT, tempDataDir } from '../../harness/host-process.ts';

export interface Certificate {
  certificatePath: string;
  keyPath: string;
}

export interface ProxyProcess extends Certificate {
  /** The self-signed certificate (PEM) clients must trust; valid for localhost, 127.0.0.1 and ::1. */
  readonly certificate: string;
  readonly output: string[];
  stop(): Promise<void>;
}

/** The only fenced block of `language` in the page's `## section` (up to the next `## ` heading). */
export function fencedBlock(page: string, section: string, language: string): string {
  const text = readFileSync(join(ROOT, page), 'utf8');
  const start = text.indexOf(`\n## ${section}\n`);
  if (start < 0) throw new Error(`${page} has no section ${section}`);
  const end = text.indexOf('\n## ', start + 1);
  // The language may be followed by attributes (`nginx file=/etc/nginx/conf.d/x.conf`).
  const pattern = new RegExp(`^\`\`\`${language}(?: [^\\n]*)?\\n([\\s\\S]*?)^\`\`\`$`, 'gm');
  const blocks = [...text.slice(start, end < 0 ? undefined : end).matchAll(pattern)].map((m) => m[1] ?? '');
  if (blocks.length !== 1) throw new Error(`${page}, ${section}: expected one ${language} block, found ${blocks.length}`);
  return blocks[0]!;
}

/**
 * The page's block with each replacement (placeholders: the listening address, the certificate,
 * the upstream port) made exactly once: a page that no longer holds a placeholder fails the test
 * instead of running something else.
 */
export function documentedBlock(page: string, section: string, language: string, replacements: ReadonlyArray<readonly [string, string]>): string {
  let block = fencedBlock(page, section, language);
  for (const [from, to] of replacements) {
    if (block.split(from).length !== 2) throw new Error(`${page}, ${section}: the ${language} block should hold ${from} exactly once`);
    block = block.replace(from, to);
  }
  return block;
}

/** A key and a certificate for localhost, 127.0.0.1 and ::1, valid one day, in `dir`. */
export function selfSignedCertificate(openssl: string, dir: string): Certificate {
  const certificatePath = join(dir, 'cert.pem');
  const keyPath = join(dir, 'key.pem');
  const subject = ['-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1'];
  execFileSync(
    openssl,
    ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', ...subject, '-keyout', keyPath, '-out', certificatePath],
    {
      stdio: 'ignore',
    },
  );
  return { certificatePath, keyPath };
}

/** Spawns a proxy and resolves once it says it serves; `stop()` sends SIGTERM and waits for the exit. */
async function run(name: string, command: string, args: string[], env: NodeJS.ProcessEnv, tls: Certificate, ready: (line: string) => boolean): Promise<ProxyProcess> {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
  const output: string[] = [];
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await untilReady(child, output, { name, ready, timeoutMs: 20_000 });
  return {
    certificate: readFileSync(tls.certificatePath, 'utf8'),
    ...tls,
    output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** nginx in the foreground with `http(tls)` inside its `http` block; ready once its worker runs (the sockets are open). */
export async function startNginx(nginx: string, openssl: string, http: (tls: Certificate) => string): Promise<ProxyProcess> {
  const prefix = tempDataDir('nginx-');
  mkdirSync(join(prefix, 'temp'));
  const tls = selfSignedCertificate(openssl, prefix);
  const temp = (kind: string) => `${kind}_temp_path ${join(prefix, 'temp', kind)};`;
  const conf = [
    // As root nginx would run its worker as nobody, which cannot enter this private directory.
    process.getuid?.() === 0 ? 'user root;' : '',
    `pid ${join(prefix, 'nginx.pid')};`,
    'error_log stderr notice;',
    'worker_processes 1;',
    'events { worker_connections 256; }',
    'http {',
    '  access_log off;',
    `  ${['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(temp).join(' ')}`,
    http(tls),
    '}',
  ].join('\n');
  writeFileSync(join(prefix, 'nginx.conf'), conf);
  const args = ['-p', prefix, '-c', join(prefix, 'nginx.conf'), '-e', 'stderr', '-g', 'daemon off;'];
  return run('nginx', nginx, args, process.env, tls, (line) => line.includes('start worker process'));
}

/** Caddy with `site(tls)` as its only site, no admin endpoint, its state in a temp directory; ready once its configuration is served. */
export async function startCaddy(caddy: string, openssl: string, site: (tls: Certificate) => string): Promise<ProxyProcess> {
  const dir = tempDataDir('caddy-');
  const tls = selfSignedCertificate(openssl, dir);
  // No admin API (it would take port 2019), no automatic HTTPS (no ACME, no redirect listener on :80).
  writeFileSync(join(dir, 'Caddyfile'), `{\n\tadmin off\n\tauto_https off\n}\n\n${site(tls)}`);
  const env = { ...process.env, HOME: dir, XDG_DATA_HOME: join(dir, 'data'), XDG_CONFIG_HOME: join(dir, 'config') };
  return run('caddy', caddy, ['run', '--adapter', 'caddyfile', '--config', join(dir, 'Caddyfile')], env, tls, (line) => line.includes('serving initial configuration'));
}
