/**
 * The "server" docs/deployment.md is run on: a temporary root holding the machine's /opt, /etc and
 * /var, and a bin directory of stand-ins for what needs root or systemd as PID 1 (`sudo`,
 * `useradd`, `install -o/-g`, `systemctl`, `journalctl`, `nginx -t`), first on a PATH that is
 * otherwise systemd's (no Node 24 on it: the system Node, if any, stays). The page's blocks run
 * here after the replacements the page lists under "How this page is tested".
 */
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tempDataDir } from '../../../harness/host-process.ts';
import type { PageBlock } from './page.ts';
import { journalOf, SYSTEMD_PATH } from './units.ts';

export interface CommandResult {
  code: number | null;
  output: string;
}

const STAND_INS = (root: string, node: string, nginx: string, systemdAnalyze: string): Record<string, string> => ({
  // Root is the test's user: `sudo [-u USER] command` runs the command.
  sudo: `#!/bin/sh\nif [ "$1" = "-u" ]; then shift 2; fi\nexec "$@"\n`,
  // The service's user is the test's user.
  useradd: '#!/bin/sh\necho "useradd (test stand-in): the service runs as $(id -un)"\n',
  install: `#!/bin/sh\nargs=""\nwhile [ $# -gt 0 ]; do case "$1" in -o|-g) shift 2;; *) args="$args $1"; shift;; esac; done\nexec /usr/bin/install $args\n`,
  systemctl: `#!/bin/sh\nexec "${node}" "${join(import.meta.dirname, 'systemctl.ts')}" "$@"\n`,
  journalctl: `#!/bin/sh\nunit=""; lines=10\nwhile [ $# -gt 0 ]; do case "$1" in -u) unit=$2; shift 2;; -n) lines=$2; shift 2;; *) shift;; esac; done\nexec tail -n "$lines" "${join(root, 'var', 'log', 'journal')}/$unit.log"\n`,
  // nginx with the machine's configuration (its prefix under the root).
  nginx: `#!/bin/sh\nexec ${nginx} -p "${join(root, 'var', 'lib', 'nginx')}" -c "${join(root, 'etc', 'nginx', 'nginx.conf')}" -e stderr "$@"\n`,
  // The real systemd-analyze, on a copy of the unit whose machine paths are under the root.
  // (The unit is the last argument.)
  'systemd-analyze': `#!/bin/sh\nfor unit; do :; done\ncopy="${join(root, 'run', 'analyze')}/$(basename "$unit")"\nmkdir -p "$(dirname "$copy")"\nsed -E 's#(^|[ =])/(opt|etc|var)/#\\1${root}/\\2/#g' "$unit" > "$copy"\nargs=""\nfor arg; do [ "$arg" = "$unit" ] || args="$args $arg"; done\nexec ${systemdAnalyze} $args "$copy"\n`,
});

/** A tool's absolute path (a stand-in of the same name must not find itself). */
function absolute(command: string): string {
  if (command.startsWith('/')) return command;
  return execFileSync('bash', ['-c', `command -v "${command}"`], { encoding: 'utf8', env: { PATH: `${process.env['PATH'] ?? ''}:${SYSTEMD_PATH}` } }).trim();
}

export class DeploymentServer {
  readonly root = tempDataDir('deployment-');
  /** Where the operator's commands run (their home, holding the copied tarball). */
  readonly home = join(this.root, 'home', 'operator');
  readonly bin = join(this.root, 'stand-ins');
  readonly #env: Record<string, string>;

  constructor(options: { nginx: string; caddy: string; systemdAnalyze: string }) {
    mkdirSync(this.home, { recursive: true });
    mkdirSync(this.bin, { recursive: true });
    const [nginx, caddy, systemdAnalyze] = [options.nginx, options.caddy, options.systemdAnalyze].map(absolute);
    for (const [name, script] of Object.entries(STAND_INS(this.root, process.execPath, nginx!, systemdAnalyze!))) {
      writeFileSync(join(this.bin, name), script);
      chmodSync(join(this.bin, name), 0o755);
    }
    this.#env = { PATH: `${this.bin}:${SYSTEMD_PATH}`, HOME: this.home, LANG: 'C.UTF-8', DEPLOY_ROOT: this.root };
    this.#installProxies(nginx!, caddy!);
  }

  /** A machine path under the root. */
  path(machinePath: string): string {
    return join(this.root, machinePath);
  }

  /** What apt would install: nginx's main configuration (including conf.d/) and units for nginx and Caddy. */
  #installProxies(nginx: string, caddy: string): void {
    const prefix = this.path('/var/lib/nginx');
    mkdirSync(join(prefix, 'temp'), { recursive: true });
    const temp = (kind: string) => `${kind}_temp_path ${join(prefix, 'temp', kind)};`;
    this.write(
      '/etc/nginx/nginx.conf',
      [
        // As root nginx would run its worker as nobody, which cannot enter the private temp directory.
        process.getuid?.() === 0 ? 'user root;' : '',
        `pid ${join(prefix, 'nginx.pid')};`,
        'error_log stderr notice;',
        'worker_processes 1;',
        'events { worker_connections 256; }',
        'http {',
        '  access_log off;',
        `  ${['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(temp).join(' ')}`,
        `  include ${this.path('/etc/nginx/conf.d')}/*.conf;`,
        '}',
        '',
      ].join('\n'),
    );
    const nginxArgs = `-p ${prefix} -c ${this.path('/etc/nginx/nginx.conf')} -e stderr`;
    this.write(
      '/etc/systemd/system/nginx.service',
      `[Service]\nExecStart=${nginx} ${nginxArgs} -g "daemon off;"\nExecReload=${nginx} ${nginxArgs} -s reload\nX-TestReadyLine=start worker process\n`,
    );
    const caddyHome = this.path('/var/lib/caddy');
    this.write(
      '/etc/systemd/system/caddy.service',
      `[Service]\nExecStart=${caddy} run --adapter caddyfile --config ${this.path('/etc/caddy/Caddyfile')}\nEnvironment=HOME=${caddyHome} XDG_DATA_HOME=${caddyHome}/data XDG_CONFIG_HOME=${caddyHome}/config\nX-TestReadyLine=serving initial configuration\n`,
    );
  }

  /** Writes a machine file (its path is the machine's). */
  write(machinePath: string, text: string): void {
    const path = this.path(machinePath);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  }

  /** The page's file block, with `replace` applied, at its path. */
  writeBlock(block: PageBlock, replace: (text: string) => string): void {
    if (!block.file) throw new Error('not a file block');
    this.write(block.file, replace(block.text));
  }

  /** A sh block run by bash (`set -e`), with the machine's paths under the root. */
  run(block: PageBlock, replace: (text: string) => string, options: { cwd?: string; env?: Record<string, string> } = {}): Promise<CommandResult> {
    const script = `set -e\n${this.onMachine(replace(block.text))}`;
    return new Promise((resolve) => {
      const child = spawn('bash', ['-c', script], { cwd: options.cwd ?? this.home, env: options.env ?? this.#env, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.once('close', (code) => resolve({ code, output }));
    });
  }

  /** The machine's absolute paths in a script, moved under the root. */
  onMachine(text: string): string {
    return text.replace(/(^|[\s=:'"])\/(opt|etc|var)\//gm, (_, before: string, top: string) => `${before}${this.root}/${top}/`);
  }

  /** The environment the page's server commands run with (for the test's own tools). */
  get env(): Record<string, string> {
    return this.#env;
  }

  /** What a unit wrote (the stand-in's journal). */
  journal(unit: string): string {
    return journalOf(this.root, unit);
  }

  /** `systemctl` through the stand-in, for the test's own stops. */
  systemctl(...args: string[]): Promise<CommandResult> {
    return this.run({ section: '', language: 'sh', text: `systemctl ${args.join(' ')}\n` }, (text) => text);
  }
}
