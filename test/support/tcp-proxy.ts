/**
 * A TCP forwarder in front of a real server (PostgreSQL, Redis), for fault tests: `cut()` drops
 * every connection and refuses new ones (the server "goes away") without touching the shared
 * server itself; `restore()` listens again on the same port; `stall()` stops forwarding bytes
 * (a hung server or a black-holed network) until `unstall()`.
 */
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  /** The port the proxy listens on (stable across cut/restore). */
  readonly port: number;
  /** `targetUrl` with its host and port replaced by the proxy's. */
  url(targetUrl: string): string;
  cut(): Promise<void>;
  restore(): Promise<void>;
  stall(): void;
  unstall(): void;
  /** Same as cut(): for afterEach. */
  close(): Promise<void>;
}

export interface ProxyTarget {
  host: string;
  port: number;
}

/** The host and port a URL points at, with the scheme's default port. */
export function targetOf(url: string, defaultPort: number): ProxyTarget {
  const parsed = new URL(url);
  return { host: parsed.hostname || '127.0.0.1', port: Number(parsed.port || defaultPort) };
}

export async function startTcpProxy(target: ProxyTarget): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let stalled = false;
  let held: Array<() => void> = [];

  function pipe(from: Socket, to: Socket): void {
    from.on('data', (chunk: Buffer) => {
      if (stalled) held.push(() => to.write(chunk));
      else to.write(chunk);
    });
  }

  function handle(client: Socket): void {
    const upstream = connect(target.port, target.host);
    sockets.add(client).add(upstream);
    pipe(client, upstream);
    pipe(upstream, client);
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  }

  const listen = (server: Server, port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });

  let server: Server | undefined = createServer(handle);
  await listen(server, 0);
  const port = (server.address() as AddressInfo).port;

  const cut = async () => {
    const current = server;
    server = undefined;
    const closed = current === undefined ? Promise.resolve() : new Promise<void>((resolve) => current.close(() => resolve()));
    stalled = false;
    held = [];
    for (const socket of sockets) socket.destroy();
    sockets.clear();
    await closed;
  };

  return {
    port,
    url(targetUrl) {
      const parsed = new URL(targetUrl);
      parsed.hostname = '127.0.0.1';
      parsed.port = String(port);
      return parsed.href;
    },
    cut,
    async restore() {
      if (server !== undefined) return;
      server = createServer(handle);
      await listen(server, port);
    },
    stall() {
      stalled = true;
    },
    unstall() {
      stalled = false;
      for (const send of held.splice(0)) send();
    },
    close: cut,
  };
}
