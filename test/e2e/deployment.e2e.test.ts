/**
 * docs/deployment.md, run as written (its last section lists what the test changes): the release
 * built with the page's command, unpacked and started by the unit on a PATH without Node 24, nginx
 * and Caddy in front with the page's files, then through each proxy REST, server-sent events and
 * gRPC (grpcurl over TLS to the proxy, h2c to the host); a registration whose mail arrives over
 * SMTP, a password sign-in and a passkey; the release's `wasmtime serve` variant and its mail drain;
 * a backup restored, an upgrade, and a stop on the unit's signal. Every block of the page is taken by some step, and the unit it shows is the release's.
 */
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { request } from 'node:https';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { untilReady } from '../../harness/child-output.ts';
import { freePort, ROOT, tempDataDir } from '../../harness/host-process.ts';
import { requireTool } from '../../harness/tools.ts';
import { PageSteps } from '../support/deployment/page.ts';
import { DeploymentServer } from '../support/deployment/server.ts';
import { selfSignedCertificate } from '../support/reverse-proxy.ts';
import { linkIn, type SmtpSink, startSmtpSink } from '../support/smtp-sink.ts';
import { SoftwarePasskey } from '../support/software-passkey.ts';

const nginx = requireTool('nginx');
const caddy = requireTool('caddy');
const openssl = requireTool('openssl');
const grpcurl = requireTool('grpcurl');
const smtp = requireTool('aiosmtpd');
const systemdAnalyze = requireTool('systemd-analyze');
const wasmtime = requireTool('wasmtime');
const tools = [nginx, caddy, openssl, grpcurl, smtp, systemdAnalyze, wasmtime];

const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const RELEASE = `wasi-counter-auth-${VERSION}`;
const SERVICE = 'wasi-counter-auth';
const PASSWORD = 'correct horse battery staple';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** An https request trusting the test's certificate (fetch cannot be given a CA). */
function https(url: string, ca: string, options: { method?: string; headers?: Record<string, string>; body?: unknown; readMs?: number } = {}): Promise<Answer> {
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  const headers = { ...(body ? { 'content-type': 'application/json' } : {}), ...options.headers };
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'GET', ca, headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      const done = () => resolve({ status: res.statusCode!, headers: res.headers, text });
      res.on('end', done);
      // A stream: what arrived within readMs.
      if (options.readMs) setTimeout(() => (done(), req.destroy()), options.readMs);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** `name=value` of a cookie set by an answer. */
function cookie(answer: Answer, name: RegExp): string | undefined {
  const setCookies = answer.headers['set-cookie'] ?? [];
  return (Array.isArray(setCookies) ? setCookies : [setCookies]).find((c) => name.test(c.split('=')[0] ?? ''))?.split(';')[0];
}

/** A PATH without the checkout's node_modules/.bin (Node 24): what the operator's shell has. */
const pathWithoutNode24 = (process.env['PATH'] ?? '')
  .split(delimiter)
  .filter((dir) => !dir.includes('node_modules'))
  .join(delimiter);

describe.skipIf(tools.some((tool) => tool === undefined))('docs/deployment.md, run as written', { timeout: 300_000 }, () => {
  const page = new PageSteps();
  let server: DeploymentServer;
  let sink: SmtpSink;
  let ca: string;
  let hostPort: number;
  const proxyPorts: Record<'nginx' | 'Caddy', number> = { nginx: 0, Caddy: 0 };
  /** The page's text on this machine: names and ports (the page's "How this page is tested"). */
  let replace: (text: string, proxy?: 'nginx' | 'Caddy') => string;

  beforeAll(async () => {
    sink = await startSmtpSink(smtp!);
    hostPort = await freePort();
    proxyPorts.nginx = await freePort();
    proxyPorts.Caddy = await freePort();
    server = new DeploymentServer({ nginx: nginx!.path, caddy: caddy!.path, systemdAnalyze: systemdAnalyze!.path });
    // The certificate at the page's paths, and every client trusting it.
    const tls = selfSignedCertificate(openssl!.path, tempDataDir('deployment-tls-'));
    ca = readFileSync(tls.certificatePath, 'utf8');
    server.write('/etc/ssl/counter.example/fullchain.pem', ca);
    server.write('/etc/ssl/counter.example/privkey.pem', readFileSync(tls.keyPath, 'utf8'));
    Object.assign(server.env, { CURL_CA_BUNDLE: tls.certificatePath, SSL_CERT_FILE: tls.certificatePath });
    replace = (text, proxy = 'nginx') =>
      text
        .replaceAll('https://counter.example', `https://localhost:${proxyPorts[proxy]}`)
        .replaceAll('counter.example:443', `localhost:${proxyPorts[proxy]}`)
        .replaceAll('127.0.0.1:3000', `127.0.0.1:${hostPort}`)
        .replaceAll('PORT=3000', `PORT=${hostPort}`)
        .replace('SMTP_URL=smtps://counter:change-me@mail.example:465', `SMTP_URL=${sink.url}`);
  }, 60_000);

  afterAll(async () => {
    for (const unit of [SERVICE, 'nginx', 'caddy']) await server?.systemctl('stop', unit);
    await sink?.stop();
    // Two releases and their tarballs: most of a GiB.
    if (server) rmSync(server.root, { recursive: true, force: true });
  });

  /** The operator's own machine, where the page's checks run from: its PATH (grpcurl, curl), trusting the certificate. */
  const client = () =>
    ({ ...process.env, PATH: pathWithoutNode24, CURL_CA_BUNDLE: server.env['CURL_CA_BUNDLE']!, SSL_CERT_FILE: server.env['SSL_CERT_FILE']! }) as Record<string, string>;

  const run = async (section: string, proxy?: 'nginx' | 'Caddy', env?: Record<string, string>) => {
    let output = '';
    for (const block of page.commands(section)) {
      const result = await server.run(block, (text) => replace(text, proxy), { env });
      output += result.output;
      expect(result.code, `${section}:\n${block.text}\n${result.output}`).toBe(0);
    }
    return output;
  };
  const view = async (proxy: 'nginx' | 'Caddy' = 'nginx') => JSON.parse((await https(`https://localhost:${proxyPorts[proxy]}/api/counter/view`, ca)).text) as { count: number };
  const increment = async () => expect((await https(`https://localhost:${proxyPorts.nginx}/api/counter/increment`, ca, { method: 'POST', body: { amount: 1 } })).status).toBe(200);

  it('makes the release with its command, the name the page gives matching the version', async () => {
    const [build] = page.commands('Make the release');
    expect(build!.text).toContain(`--out release/${RELEASE} --tarball`);
    const out = server.path('/build-machine');
    // The build machine: this checkout, its Node 24 found by npm alone.
    const result = await server.run(build!, (text) => text.replace('--out release/', `--out ${out}/release/`), {
      cwd: ROOT,
      env: { ...process.env, PATH: pathWithoutNode24 } as Record<string, string>,
    });
    expect(result.code, result.output).toBe(0);
    const tarball = join(out, 'release', `${RELEASE}.tar.gz`);
    expect(statSync(tarball).size).toBeGreaterThan(10 * 1_048_576);
    // The scp.
    copyFileSync(tarball, join(server.home, `${RELEASE}.tar.gz`));
  }, 600_000);

  it('unpacks it; --help runs on the release’s own Node (the PATH has none of version 24), named after its command', async () => {
    const node = execFileSync('bash', ['-c', 'command -v node && node --version || true'], { env: server.env, encoding: 'utf8' });
    expect(node).not.toMatch(/v24\./);
    const output = await run('Unpack it on the server');
    expect(output).toMatch(/^Usage: wasi-counter-auth \[options\]$/m);
    expect(output).toMatch(/^ {2}--postgres-url +POSTGRES_URL +none /m);
    expect(output).toMatch(/^ {2}AUTH_PUBLIC_BASE_URL +unset /m);
    expect(existsSync(server.path(`/opt/wasi-counter-auth/releases/${RELEASE}/runtime/bin/node`))).toBe(true);
  });

  it('shows the release’s unit as it is', () => {
    const [unit] = page.take('The service unit').filter((block) => block.release);
    const shipped = readFileSync(server.path(`/opt/wasi-counter-auth/releases/${RELEASE}/${unit!.release}`), 'utf8');
    expect(unit!.text).toBe(shipped);
    expect(shipped).toBe(readFileSync(join(ROOT, 'scripts', 'release', 'wasi-counter-auth.service'), 'utf8'));
  });

  it('configures it and starts the unit, which says at start what is on', async () => {
    server.writeBlock(page.file('Configure it', '/etc/wasi-counter-auth/env'), replace);
    await run('Configure it');
    expect(statSync(server.path('/etc/wasi-counter-auth/env')).mode & 0o777).toBe(0o600);
    // The installed unit's paths are the machine's: systemd-analyze verify checks its ExecStart there.
    const output = await run('The service unit');
    expect(output).toContain('"count":0');
    const listening = readFileSync(server.journal(SERVICE), 'utf8')
      .split('\n')
      .filter((line) => line.includes('"code":"host_listening"'))
      .map((line) => JSON.parse(line) as { summary: Record<string, string> })[0];
    // Installed, systemd-analyze (offline: no systemd as PID 1 needed) rates its exposure below 2 of 10 (its --threshold counts in tenths).
    const security = await server.run(
      { section: '', language: 'sh', text: 'systemd-analyze security --offline=true --threshold=20 /etc/systemd/system/wasi-counter-auth.service\n' },
      (text) => text,
    );
    expect(security.code, security.output).toBe(0);
    expect(security.output).toMatch(/Overall exposure level for wasi-counter-auth\.service: 1\.\d OK/);
    expect(listening?.summary).toEqual({
      store: `sqlite ${server.path('/var/lib/wasi-counter-auth')}/app.sqlite`,
      realtime: 'local',
      'public base': `https://localhost:${proxyPorts.nginx}`,
      mail: `on (SMTP ${sink.url})`,
      passkeys: 'on (RP ID localhost)',
      provider_a: 'off (AUTH_ENABLE_OAUTH is not true)',
      provider_b: 'off (AUTH_ENABLE_OAUTH is not true)',
      provider_c: 'off (AUTH_ENABLE_OAUTH is not true)',
      'trusted proxies': '127.0.0.1/32,::1/128',
    });
  });

  it('puts nginx and Caddy in front with the page’s files', async () => {
    server.writeBlock(page.file('nginx in front', '/etc/nginx/conf.d/wasi-counter-auth.conf'), (text) =>
      server.onMachine(
        replace(text)
          .replace('listen 443 ssl http2;', `listen 127.0.0.1:${proxyPorts.nginx} ssl http2;`)
          .replace('listen [::]:443 ssl http2;', `listen [::1]:${proxyPorts.nginx} ssl http2;`)
          .replace('server_name counter.example;', 'server_name localhost;'),
      ),
    );
    await run('nginx in front');
    server.writeBlock(page.file('Caddy in front', '/etc/caddy/Caddyfile'), (text) => {
      const site = replace(text, 'Caddy').replace(
        'counter.example {',
        `https://localhost:${proxyPorts.Caddy} {\n\tbind 127.0.0.1 ::1\n\ttls ${server.path('/etc/ssl/counter.example/fullchain.pem')} ${server.path('/etc/ssl/counter.example/privkey.pem')}`,
      );
      return `{\n\tadmin off\n\tauto_https off\n}\n\n${site}`;
    });
    await run('Caddy in front');
  });

  it.each(['nginx', 'Caddy'] as const)('answers through %s: REST, gRPC over TLS with grpcurl (h2c to the host), server-sent events', async (proxy) => {
    const before = (await view(proxy)).count;
    const output = await run('Check it from outside', proxy, client());
    expect(output).toContain(`"count":${before + 1}`);
    // (curl prints no newline after a JSON body.)
    expect(output).toMatch(/counter\.v1\.CounterService\ngrpc\.reflection\.v1\.ServerReflection\n/);
    expect(output).toContain(`"count": ${before + 3}`);
    const stream = await https(`https://localhost:${proxyPorts[proxy]}/api/counter/stream`, ca, { headers: { accept: 'text/event-stream' }, readMs: 1_500 });
    expect(stream.status).toBe(200);
    expect(stream.text).toMatch(new RegExp(`^data: .*"count":${before + 3}`, 'm'));
  });

  it('a user registers through nginx, the verification mail arrives over SMTP, signs in with a password, adds a passkey and signs in with it', async () => {
    const base = `https://localhost:${proxyPorts.nginx}`;
    const browser = { origin: base, 'sec-fetch-site': 'same-origin' };
    const email = `operator-${Date.now().toString(36)}@example.com`;
    expect((await https(`${base}/api/auth/password/register`, ca, { method: 'POST', headers: browser, body: { email, password: PASSWORD } })).status).toBe(202);
    const mail = await sink.waitFor((m) => m.to.includes(email));
    const token = new URL(linkIn(mail, '/verify-email')).searchParams.get('token');
    expect(linkIn(mail, '/verify-email').startsWith(`${base}/verify-email?token=`)).toBe(true);
    expect((await https(`${base}/api/auth/email/verify`, ca, { method: 'POST', headers: browser, body: { token } })).status).toBe(200);
    const login = await https(`${base}/api/auth/password/login`, ca, { method: 'POST', headers: browser, body: { email, password: PASSWORD } });
    expect(login.status).toBe(200);
    // An https base: the session cookie is Secure with the __Host- prefix.
    const session = cookie(login, /^__Host-wasi_auth_dev_session$/);
    expect(session).toBeDefined();
    const key = new SoftwarePasskey();
    const creation = JSON.parse(
      (await https(`${base}/api/auth/passkeys/registration/options`, ca, { method: 'POST', headers: { ...browser, cookie: session! }, body: { password: PASSWORD } })).text,
    );
    expect(creation.rp.id).toBe('localhost');
    const added = await https(`${base}/api/auth/passkeys/registration/verify`, ca, {
      method: 'POST',
      headers: { ...browser, cookie: session! },
      body: { response: key.register(creation, { origin: base }), name: 'deployment test' },
    });
    expect(added.status, added.text).toBe(201);
    const request = JSON.parse((await https(`${base}/api/auth/passkeys/authentication/options`, ca, { method: 'POST', headers: browser, body: {} })).text);
    const signedIn = await https(`${base}/api/auth/passkeys/authentication/verify`, ca, {
      method: 'POST',
      headers: browser,
      body: { response: key.assert(request, { origin: base }) },
    });
    expect(signedIn.status, signedIn.text).toBe(200);
    expect(JSON.parse(signedIn.text)).toMatchObject({ aal: 'aal2' });
  });

  it('the release serves the wasmtime serve variant too: its start says queued mail needs the drain, and the drain delivers it', async () => {
    const release = server.path('/opt/wasi-counter-auth/current');
    const port = await freePort();
    const dataDir = server.path('/var/lib/wasi-counter-auth-wasmtime');
    const cache = server.path('/var/cache/wasi-counter-auth');
    const env = { ...client(), WASMTIME: wasmtime!.path, CACHE_DIRECTORY: cache, AUTH_PUBLIC_BASE_URL: `http://localhost:${port}`, SMTP_URL: sink.url };
    const launcher = spawn(join(release, 'bin', 'wasi-counter-auth'), ['serve-wasmtime', '--port', String(port), '--data-dir', dataDir], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => launcher.once('exit', (code) => resolve(code)));
    const output: string[] = [];
    try {
      // The first start compiles the component into the cache directory (the release's own is read-only to its service).
      await untilReady(launcher, output, { name: 'serve-wasmtime', ready: (line) => line.includes('"code":"wasmtime_listening"'), timeoutMs: 300_000 });
      const listening = JSON.parse(output.find((line) => line.includes('"code":"wasmtime_listening"'))!) as { mail: string };
      expect(listening.mail).toBe(`queued in ${dataDir}'s outbox, not sent until \`wasi-counter-auth mail-drain --data-dir ${dataDir}\` runs beside this (SMTP_URL)`);
      expect(existsSync(join(cache, 'component.cwasm'))).toBe(true);
      const email = `wasmtime-${Date.now().toString(36)}@example.com`;
      const registered = await fetch(`http://127.0.0.1:${port}/api/auth/password/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: `http://localhost:${port}` },
        body: JSON.stringify({ email, password: PASSWORD }),
      });
      expect(registered.status).toBe(202);
      const drained = execFileSync(join(release, 'bin', 'wasi-counter-auth'), ['mail-drain', '--data-dir', dataDir, '--once'], { env, encoding: 'utf8' });
      expect(drained).toContain('"code":"mail_delivered"');
      expect(linkIn(await sink.waitFor((m) => m.to.includes(email)), '/verify-email')).toMatch(new RegExp(`^http://localhost:${port}/verify-email\\?token=`));
    } finally {
      launcher.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  }, 600_000);

  it('backs up while serving; a restore brings the count back to the backup’s', async () => {
    const [backup, restore] = page.commands('Backups');
    const counted = (await view()).count;
    expect((await server.run(backup!, replace)).code).toBe(0);
    await increment();
    expect((await view()).count).toBe(counted + 1);
    const restored = await server.run(restore!, replace);
    expect(restored.code, restored.output).toBe(0);
    await waitForService();
    expect((await view()).count).toBe(counted);
  });

  /** Until the restarted service answers (the page's restore starts it and returns, as systemd does). */
  async function waitForService(): Promise<void> {
    for (let i = 0; i < 120; i++) {
      const answer = await https(`https://localhost:${proxyPorts.nginx}/api/counter/view`, ca).catch(() => undefined);
      if (answer?.status === 200) return;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    throw new Error('the service did not answer within 60 s');
  }

  it('upgrades to a new release, keeping the data', async () => {
    const next = 'wasi-counter-auth-0.2.0';
    // The same release under the next version's name (what matters is the switch, not the code).
    execFileSync('bash', [
      '-c',
      `tar -C "${server.path('/opt/wasi-counter-auth/releases')}" --transform 's,^${RELEASE},${next},' -cf - ${RELEASE} | gzip -1 > "${join(server.home, `${next}.tar.gz`)}"`,
    ]);
    const counted = (await view()).count;
    const output = await run('Upgrades');
    expect(output).toContain(`"count":${counted}`);
    expect(readFileSync(server.path('/opt/wasi-counter-auth/current/release.json'), 'utf8')).toBeDefined();
    expect(execFileSync('readlink', [server.path('/opt/wasi-counter-auth/current')], { encoding: 'utf8' }).trim()).toBe(`releases/${next}`);
    expect(existsSync(server.path(`/var/backups/wasi-counter-auth/before-${next}.sqlite`))).toBe(true);
  });

  it('stops on the unit’s signal: the host drains and exits 0, logging host_stopped', async () => {
    const stopped = await server.systemctl('stop', SERVICE);
    expect(stopped.code, stopped.output).toBe(0);
    const journal = readFileSync(server.journal(SERVICE), 'utf8');
    expect(journal.slice(journal.lastIndexOf('"code":"host_stopping"'))).toContain('"code":"host_stopped"');
  });

  it('took every block of the page', () => {
    // The wasmtime serve location is test/e2e/wasmtime-client-address.e2e.test.ts's.
    page.take('`wasmtime serve`');
    expect(page.unused()).toEqual([]);
  });
});
