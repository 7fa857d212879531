/**
 * Sign-in limits behind a TLS-terminating reverse proxy (docs/deployment.md): real nginx and
 * Caddy from Debian, each configured with the page's own block, in front of a real host. Clients
 * connect from distinct loopback addresses (127.0.0.2 the victim, 127.0.0.3 the attacker; Linux
 * routes all of 127.0.0.0/8 to lo), so the proxy sees distinct peers while the host sees only the
 * proxy at 127.0.0.1.
 *
 * The attack: five wrong passwords for the victim's email from the attacker. With
 * --trusted-proxies the attacker locks only itself; without it, every client is the proxy and the
 * victim is locked out too (what the host did before the option existed).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startHost, type HostProcess } from '../support/host-process.ts';
import { postFrom } from '../support/post-from.ts';
import { type Certificate, documentedBlock, type ProxyProcess, startCaddy, startNginx } from '../support/reverse-proxy.ts';
import { requireTool } from '../support/tools.ts';
import { PASSWORD, uniqueEmail } from '../auth/support.ts';

const nginx = requireTool('nginx');
const caddy = requireTool('caddy');
const openssl = requireTool('openssl');

const VICTIM = '127.0.0.2';
const ATTACKER = '127.0.0.3';
const LOGIN = '/api/auth/password/login';

interface Proxy {
  name: string;
  available: boolean;
  start(proxyPort: number, hostPort: number): Promise<ProxyProcess>;
}

const NGINX: Proxy = {
  name: 'nginx',
  available: Boolean(nginx && openssl),
  start: (proxyPort, hostPort) =>
    startNginx(nginx!.path, openssl!.path, (tls: Certificate) =>
      documentedBlock('docs/deployment.md', 'nginx', 'nginx', [
        ['listen 443 ssl;', `listen 127.0.0.1:${proxyPort} ssl;\n    listen [::1]:${proxyPort} ssl;`],
        ['/etc/ssl/counter.example/fullchain.pem', tls.certificatePath],
        ['/etc/ssl/counter.example/privkey.pem', tls.keyPath],
        ['http://127.0.0.1:3000', `http://127.0.0.1:${hostPort}`],
      ]),
    ),
};

const CADDY: Proxy = {
  name: 'Caddy',
  available: Boolean(caddy && openssl),
  start: (proxyPort, hostPort) =>
    startCaddy(caddy!.path, openssl!.path, (tls: Certificate) =>
      documentedBlock('docs/deployment.md', 'Caddy', 'caddy', [
        ['counter.example {', `https://127.0.0.1:${proxyPort} {\n\tbind 127.0.0.1 ::1\n\ttls ${tls.certificatePath} ${tls.keyPath}`],
        ['reverse_proxy 127.0.0.1:3000', `reverse_proxy 127.0.0.1:${hostPort}`],
      ]),
    ),
};

/** A host behind `kind` configured as docs/deployment.md shows. */
async function deployment(kind: Proxy, hostArgs: string[]): Promise<{ host: HostProcess; proxy: ProxyProcess; base: string }> {
  const proxyPort = await freePort();
  const base = `https://127.0.0.1:${proxyPort}`;
  const host = await startHost({ args: hostArgs, env: { AUTH_PUBLIC_BASE_URL: base } });
  try {
    const proxy = await kind.start(proxyPort, host.port);
    return { host, proxy, base };
  } catch (error) {
    await host.stop();
    throw error;
  }
}

describe.each([NGINX, CADDY])('behind $name terminating TLS (docs/deployment.md)', (kind) => {
  describe.skipIf(!kind.available)('with --trusted-proxies 127.0.0.1/32', () => {
    let setup: Awaited<ReturnType<typeof deployment>>;
    beforeAll(async () => {
      setup = await deployment(kind, ['--trusted-proxies', '127.0.0.1/32']);
    }, 60_000);
    afterAll(async () => {
      await setup?.proxy.stop();
      await setup?.host.stop();
    });

    const viaProxy = (from: string, path: string, body: unknown, headers?: Record<string, string>) =>
      postFrom(from, `${setup.base}${path}`, body, { ca: setup.proxy.certificate, headers });
    const registerVictim = async () => {
      const email = uniqueEmail('victim');
      expect((await viaProxy(VICTIM, '/api/auth/password/register', { email, password: PASSWORD })).status).toBe(202);
      return email;
    };

    it('logs that client addresses come from the proxy, without the https warning', () => {
      const codes = setup.host.logs().map((line) => line.code);
      expect(codes).toContain('client_address_from_proxies');
      expect(codes).not.toContain('trusted_proxies_missing');
    });

    it("five wrong passwords from the attacker lock the attacker's address only: the victim signs in from theirs", async () => {
      const email = await registerVictim();
      for (let i = 0; i < 5; i++) expect((await viaProxy(ATTACKER, LOGIN, { email, password: 'wrong password guess' })).code).toBe('invalid_credentials');
      expect(await viaProxy(ATTACKER, LOGIN, { email, password: PASSWORD })).toMatchObject({ status: 429, code: 'rate_limited' });
      expect((await viaProxy(VICTIM, LOGIN, { email, password: PASSWORD })).status).toBe(200);
    });

    it("an attacker naming the victim's address in Forwarded and X-Forwarded-For stays itself (the proxy overwrites or deletes both)", async () => {
      const email = await registerVictim();
      const posing = { forwarded: `for=${VICTIM}`, 'x-forwarded-for': VICTIM };
      for (let i = 0; i < 5; i++) expect((await viaProxy(ATTACKER, LOGIN, { email, password: 'wrong password guess' }, posing)).code).toBe('invalid_credentials');
      expect((await viaProxy(ATTACKER, LOGIN, { email, password: PASSWORD }, posing)).code).toBe('rate_limited');
      expect((await viaProxy(VICTIM, LOGIN, { email, password: PASSWORD })).status).toBe(200);
    });

    it('a client over IPv6 is named by its own address (nginx: a quoted, bracketed Forwarded node; Caddy: X-Forwarded-For), not by the proxy', async () => {
      const email = await registerVictim();
      // Lock the pair of the proxy's own address: a trusted peer sending no chain is itself the client.
      const direct = (password: string) => postFrom('127.0.0.1', `${setup.host.url}${LOGIN}`, { email, password });
      for (let i = 0; i < 5; i++) expect((await direct('wrong password guess')).code).toBe('invalid_credentials');
      expect((await direct(PASSWORD)).code).toBe('rate_limited');
      const port = new URL(setup.base).port;
      expect((await postFrom('::1', `https://[::1]:${port}${LOGIN}`, { email, password: PASSWORD }, { ca: setup.proxy.certificate })).status).toBe(200);
    });

    it('a client reaching the host directly (not a trusted peer) cannot name another address in those headers', async () => {
      const email = await registerVictim();
      const direct = (password: string) =>
        postFrom('127.0.0.4', `${setup.host.url}${LOGIN}`, { email, password }, { headers: { forwarded: `for=${VICTIM}`, 'x-forwarded-for': VICTIM } });
      for (let i = 0; i < 5; i++) expect((await direct('wrong password guess')).code).toBe('invalid_credentials');
      expect((await direct(PASSWORD)).code).toBe('rate_limited');
      expect((await viaProxy(VICTIM, LOGIN, { email, password: PASSWORD })).status).toBe(200);
    });
  });
});

describe.skipIf(!NGINX.available)('behind nginx without --trusted-proxies (every client is nginx)', () => {
  let setup: Awaited<ReturnType<typeof deployment>>;
  beforeAll(async () => {
    setup = await deployment(NGINX, []);
  }, 60_000);
  afterAll(async () => {
    await setup?.proxy.stop();
    await setup?.host.stop();
  });

  it('warns at start that the https service trusts no proxy', () => {
    const codes = setup.host.logs().map((line) => line.code);
    expect(codes).toContain('client_address_from_peer');
    expect(codes).toContain('trusted_proxies_missing');
  });

  it("ignores nginx's headers: the attacker's five wrong passwords lock the victim out too", async () => {
    const email = uniqueEmail('victim');
    const via = (from: string, path: string, body: unknown) => postFrom(from, `${setup.base}${path}`, body, { ca: setup.proxy.certificate });
    expect((await via(VICTIM, '/api/auth/password/register', { email, password: PASSWORD })).status).toBe(202);
    for (let i = 0; i < 5; i++) expect((await via(ATTACKER, LOGIN, { email, password: 'wrong password guess' })).code).toBe('invalid_credentials');
    expect(await via(VICTIM, LOGIN, { email, password: PASSWORD })).toMatchObject({ status: 429, code: 'rate_limited' });
  });
});
