/**
 * Sign-in limits behind a TLS-terminating reverse proxy (docs/deployment.md): real nginx and
 * Caddy from Debian, each configured with the page's own block, in front of a real host. Clients
 * connect from distinct loopback addresses (127.0.0.2 the victim, 127.0.0.3 the attacker; Linux
 * routes all of 127.0.0.0/8 to lo), so the proxy sees distinct peers while the host sees only the
 * proxy at 127.0.0.1.
 *
 * The attack: the attacker spends the per-client budget (AUTH_CLIENT_MAX_ATTEMPTS_PER_MINUTE, here
 * 6) with cheap login attempts for unknown addresses. With --trusted-proxies it spends only its own;
 * without it, every client is the proxy and the victim is refused too (what the host did before the
 * option existed). The same holds for the per-(email, address) lock; its test here is the one
 * without the option, since five wrong guesses also start the account-wide delay, which no address
 * escapes (security.md, "Guessing from many addresses").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startHost, type HostProcess } from '../../harness/host-process.ts';
import { postFrom } from '../support/post-from.ts';
import { type Certificate, documentedBlock, type ProxyProcess, startCaddy, startNginx } from '../support/reverse-proxy.ts';
import { requireTool } from '../../harness/tools.ts';
import { PASSWORD, uniqueEmail } from '../auth/support.ts';
import { inOneMinuteWindow } from '../support/minute-window.ts';

const nginx = requireTool('nginx');
const caddy = requireTool('caddy');
const openssl = requireTool('openssl');

const VICTIM = '127.0.0.2';
const ATTACKER = '127.0.0.3';
const LOGIN = '/api/auth/password/login';
/** The per-client budget the hosts here run with: small, so that the attack is quick. */
const CLIENT_BUDGET = 6;
/** Each test's own pair of client addresses, so that no test spends another's budget within the minute. */
let nextAddress = 10;
const freshAddress = () => `127.0.0.${nextAddress++}`;

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
      documentedBlock('docs/deployment.md', 'nginx in front', 'nginx', [
        ['listen 443 ssl http2;', `listen 127.0.0.1:${proxyPort} ssl http2;`],
        ['listen [::]:443 ssl http2;', `listen [::1]:${proxyPort} ssl http2;`],
        ['/etc/ssl/counter.example/fullchain.pem', tls.certificatePath],
        ['/etc/ssl/counter.example/privkey.pem', tls.keyPath],
        ['http://127.0.0.1:3000', `http://127.0.0.1:${hostPort}`],
        ['grpc://127.0.0.1:3000', `grpc://127.0.0.1:${hostPort}`],
      ]),
    ),
};

const CADDY: Proxy = {
  name: 'Caddy',
  available: Boolean(caddy && openssl),
  start: (proxyPort, hostPort) =>
    startCaddy(caddy!.path, openssl!.path, (tls: Certificate) =>
      documentedBlock('docs/deployment.md', 'Caddy in front', 'caddy', [
        ['counter.example {', `https://127.0.0.1:${proxyPort} {\n\tbind 127.0.0.1 ::1\n\ttls ${tls.certificatePath} ${tls.keyPath}`],
        ['reverse_proxy 127.0.0.1:3000', `reverse_proxy 127.0.0.1:${hostPort}`],
      ]),
    ),
};

/** A host behind `kind` configured as docs/deployment.md shows. */
async function deployment(kind: Proxy, hostArgs: string[]): Promise<{ host: HostProcess; proxy: ProxyProcess; base: string }> {
  const proxyPort = await freePort();
  const base = `https://127.0.0.1:${proxyPort}`;
  const host = await startHost({ args: hostArgs, env: { AUTH_PUBLIC_BASE_URL: base, AUTH_CLIENT_MAX_ATTEMPTS_PER_MINUTE: String(CLIENT_BUDGET) } });
  try {
    const proxy = await kind.start(proxyPort, host.port);
    return { host, proxy, base };
  } catch (error) {
    await host.stop();
    throw error;
  }
}

describe.each([NGINX, CADDY])('behind $name terminating TLS (docs/deployment.md)', (kind) => {
  describe.skipIf(!kind.available)('with --trusted-proxies 127.0.0.1/32', { timeout: 90_000 }, () => {
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
    /** A victim with an account, signing in from its own address. */
    const registerVictim = async (victim: string) => {
      const email = uniqueEmail('victim');
      expect((await viaProxy(victim, '/api/auth/password/register', { email, password: PASSWORD })).status).toBe(202);
      return email;
    };
    /** Spends one client's whole budget with logins for unknown addresses; the next attempt is refused. */
    const spendBudget = async (attempt: (email: string) => Promise<{ code: string | undefined }>) => {
      await inOneMinuteWindow(20_000);
      for (let i = 0; i < CLIENT_BUDGET; i++) expect((await attempt(uniqueEmail('nobody'))).code).toBe('invalid_credentials');
      expect((await attempt(uniqueEmail('nobody'))).code).toBe('rate_limited');
    };

    it('logs that client addresses come from the proxy, without the https warning', () => {
      const codes = setup.host.logs().map((line) => line.code);
      expect(codes).toContain('client_address_from_proxies');
      expect(codes).not.toContain('trusted_proxies_missing');
    });

    it('an attacker spending its budget spends its own: the victim signs in from its address', async () => {
      const [victim, attacker] = [freshAddress(), freshAddress()];
      const email = await registerVictim(victim);
      await spendBudget((nobody) => viaProxy(attacker, LOGIN, { email: nobody, password: 'wrong password guess' }));
      expect((await viaProxy(victim, LOGIN, { email, password: PASSWORD })).status).toBe(200);
    });

    it("an attacker naming the victim's address in Forwarded and X-Forwarded-For stays itself (the proxy overwrites or deletes both)", async () => {
      const [victim, attacker] = [freshAddress(), freshAddress()];
      const email = await registerVictim(victim);
      const posing = { forwarded: `for=${victim}`, 'x-forwarded-for': victim };
      await spendBudget((nobody) => viaProxy(attacker, LOGIN, { email: nobody, password: 'wrong password guess' }, posing));
      expect((await viaProxy(victim, LOGIN, { email, password: PASSWORD })).status).toBe(200);
    });

    it('a client over IPv6 is named by its own address (nginx: a quoted, bracketed Forwarded node; Caddy: X-Forwarded-For), not by the proxy', async () => {
      const email = await registerVictim(freshAddress());
      // Spend the budget of the proxy's own address: a trusted peer sending no chain is itself the client.
      await spendBudget((nobody) => postFrom('127.0.0.1', `${setup.host.url}${LOGIN}`, { email: nobody, password: 'wrong password guess' }));
      const port = new URL(setup.base).port;
      expect((await postFrom('::1', `https://[::1]:${port}${LOGIN}`, { email, password: PASSWORD }, { ca: setup.proxy.certificate })).status).toBe(200);
    });

    it('a client reaching the host directly (not a trusted peer) cannot name another address in those headers', async () => {
      const [victim, attacker] = [freshAddress(), freshAddress()];
      const email = await registerVictim(victim);
      const posing = { forwarded: `for=${victim}`, 'x-forwarded-for': victim };
      await spendBudget((nobody) => postFrom(attacker, `${setup.host.url}${LOGIN}`, { email: nobody, password: 'wrong password guess' }, { headers: posing }));
      expect((await viaProxy(victim, LOGIN, { email, password: PASSWORD })).status).toBe(200);
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

  const via = (from: string, path: string, body: unknown) => postFrom(from, `${setup.base}${path}`, body, { ca: setup.proxy.certificate });

  // Every client is nginx: the attacker's guesses (and the attempts they spend) are the victim's.
  it("ignores nginx's headers: the attacker's five wrong passwords lock the victim out too", async () => {
    const email = uniqueEmail('victim');
    expect((await via(VICTIM, '/api/auth/password/register', { email, password: PASSWORD })).status).toBe(202);
    for (let i = 0; i < 5; i++) expect((await via(ATTACKER, LOGIN, { email, password: 'wrong password guess' })).code).toBe('invalid_credentials');
    expect(await via(VICTIM, LOGIN, { email, password: PASSWORD })).toMatchObject({ status: 429, code: 'rate_limited' });
  });
});
