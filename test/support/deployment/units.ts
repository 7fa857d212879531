/** What the systemctl stand-in (systemctl.ts) and the test's server (server.ts) agree on. */
import { join } from 'node:path';

/** systemd's PATH for services (systemd.exec(5), "Environment variables in spawned processes"). */
export const SYSTEMD_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** The file a unit's output goes to (what `journalctl -u UNIT` shows). */
export const journalOf = (root: string, unit: string) => join(root, 'var', 'log', 'journal', `${unit}.log`);
