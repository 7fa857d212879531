/**
 * `npm run admin -- <command>`: the administration API (/api/admin, docs/operating.md) from a
 * terminal. The token is an AAL2 system-administrator operator token, read from ADMIN_TOKEN (never
 * from an argument, so it stays out of the shell history and the process list); the service from
 * ADMIN_URL or --url (default http://127.0.0.1:$PORT, PORT defaulting to 3000).
 *
 *   users list [--q <address prefix>] [--limit n] [--all]   one page (or every page with --all)
 *   user show <id>
 *   user disable <id> | user enable <id>
 *   user revoke-sessions <id> [--handle <session handle>]
 *   user reset-link <id>
 *   user delete <id> --yes
 *
 * Prints the answers as text (`--json`: as the API sent them). Exit 0 on success, 1 when the
 * service refused (its error code and message on stderr), 2 for a usage error.
 */
import { parseArgs } from 'node:util';

const USAGE = `Usage: npm run admin -- <command> [options]

  users list [--q <address prefix>] [--limit n] [--all]
  user show <id>
  user disable <id>
  user enable <id>
  user revoke-sessions <id> [--handle <session handle>]
  user reset-link <id>
  user delete <id> --yes

The token comes from ADMIN_TOKEN (an AAL2 system-administrator operator token: npm run -s
auth:token -- --sub <you> in development); the service from --url or ADMIN_URL (default
http://127.0.0.1:$PORT, PORT defaulting to 3000). --json prints the API's answers as sent.`;

function usage(message: string): never {
  process.stderr.write(`error: ${message}\n\n${USAGE}\n`);
  process.exit(2);
}

const { values, positionals } = (() => {
  try {
    return parseArgs({
      allowPositionals: true,
      options: {
        url: { type: 'string' },
        q: { type: 'string' },
        limit: { type: 'string' },
        all: { type: 'boolean', default: false },
        handle: { type: 'string' },
        yes: { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    return usage(error instanceof Error ? error.message : String(error));
  }
})();

if (values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}

const token = process.env['ADMIN_TOKEN']?.trim();
if (!token) usage('set ADMIN_TOKEN to an operator token');
const base = (values.url ?? process.env['ADMIN_URL'] ?? `http://127.0.0.1:${process.env['PORT'] || '3000'}`).replace(/\/+$/, '');

interface Answer {
  status: number;
  body: unknown;
}

async function call(method: string, path: string, body?: unknown): Promise<Answer> {
  let response: Response;
  try {
    response = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    process.stderr.write(`error: cannot reach ${base}: ${error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error)}\n`);
    process.exit(1);
  }
  const text = await response.text();
  const parsed: unknown = text === '' ? null : JSON.parse(text);
  if (!response.ok) {
    const failure = (parsed as { error?: { code?: string; message?: string } } | null)?.error;
    process.stderr.write(`error: ${response.status} ${failure?.code ?? ''}: ${failure?.message ?? text}\n`);
    process.exit(1);
  }
  return { status: response.status, body: parsed };
}

function print(answer: Answer, text: (body: never) => string): void {
  process.stdout.write(values.json ? `${JSON.stringify(answer.body, null, 2)}\n` : `${text(answer.body as never)}\n`);
}

interface UserLine {
  id: string;
  email: string | null;
  created_at: string;
  disabled: boolean;
}

const userLine = (u: UserLine) => `${u.id}  ${u.email ?? '(no address)'}  created ${u.created_at}${u.disabled ? '  DISABLED' : ''}`;

/**
 * One page, or every page with --all. A search is a bounded scan (docs/auth.md, "Administration"):
 * a page may be empty while `next` goes on, so without --all the scan is followed until a page
 * holds an account or every account was scanned.
 */
async function listUsers(): Promise<void> {
  let cursor: string | null = null;
  let listed = 0;
  for (;;) {
    const query = new URLSearchParams();
    if (values.q !== undefined) query.set('q', values.q);
    if (values.limit !== undefined) query.set('limit', values.limit);
    if (cursor !== null) query.set('cursor', cursor);
    const answer = await call('GET', `/api/admin/users${query.size > 0 ? `?${query}` : ''}`);
    const page = answer.body as { users: UserLine[]; next: string | null };
    listed += page.users.length;
    const last = page.next === null || (!values.all && page.users.length > 0);
    if (page.users.length > 0 || last) {
      print(answer, () =>
        [
          ...page.users.map(userLine),
          ...(page.next !== null && last ? [`(more: --all, or the API's cursor ${page.next})`] : []),
          ...(listed === 0 && page.next === null ? ['(no accounts)'] : []),
        ].join('\n'),
      );
    }
    if (last) return;
    cursor = page.next;
  }
}

interface Summary {
  id: string;
  email: string | null;
  email_verified: boolean;
  created_at: string;
  registered_with: string;
  disabled: boolean;
  access_changed_at: string | null;
  access_changed_by: string | null;
  sign_in_methods: string[];
  passkeys: Array<{ name: string; created_at: string; last_used_at: string | null }>;
  sessions: Array<{ id: string; device: string; method: string; issued_at: string; last_seen_at: string }>;
}

function summaryText(s: Summary): string {
  return [
    `${s.id}  ${s.email ?? '(no address)'}${s.email ? (s.email_verified ? ' (verified)' : ' (not verified)') : ''}`,
    `created ${s.created_at} with ${s.registered_with}`,
    `${s.disabled ? 'DISABLED' : 'enabled'}${s.access_changed_at ? ` since ${s.access_changed_at} by ${s.access_changed_by}` : ''}`,
    `sign-in methods: ${s.sign_in_methods.join(', ') || '(none)'}`,
    ...s.passkeys.map((p) => `passkey "${p.name}" added ${p.created_at}${p.last_used_at ? `, last used ${p.last_used_at}` : ''}`),
    `${s.sessions.length} live session(s)`,
    ...s.sessions.map((x) => `  ${x.id}  ${x.device}  ${x.method}  since ${x.issued_at}, seen ${x.last_seen_at}`),
  ].join('\n');
}

const [group, action, id] = positionals;
const userPath = () => {
  if (!id) usage(`user ${action ?? ''} needs an account id`);
  return `/api/admin/users/${encodeURIComponent(id)}`;
};

if (group === 'users' && action === 'list') {
  await listUsers();
} else if (group === 'user') {
  switch (action) {
    case 'show':
      print(await call('GET', userPath()), summaryText);
      break;
    case 'disable':
    case 'enable':
      print(
        await call('POST', `${userPath()}/${action}`),
        (b: { changed: boolean; sessions_ended: number }) =>
          `${action === 'disable' ? 'disabled' : 'enabled'}${b.changed ? '' : ' (it already was)'}${action === 'disable' ? `; ${b.sessions_ended} session(s) ended` : ''}`,
      );
      break;
    case 'revoke-sessions':
      print(
        await call('POST', `${userPath()}/sessions/revoke`, values.handle === undefined ? { all: true } : { handle: values.handle }),
        (b: { revoked: number }) => `${b.revoked} session(s) ended`,
      );
      break;
    case 'reset-link':
      print(await call('POST', `${userPath()}/reset-link`), () => 'a reset link is on its way to the account’s address');
      break;
    case 'delete':
      if (!values.yes) usage('user delete erases the account for good: add --yes');
      print(await call('DELETE', userPath()), () => 'deleted');
      break;
    default:
      usage(`unknown command: user ${action ?? ''}`);
  }
} else {
  usage(positionals.length === 0 ? 'a command is required' : `unknown command: ${positionals.join(' ')}`);
}
