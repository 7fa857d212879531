/**
 * Counts in a Node host's SQLite store read from its file (read-only, beside the running host):
 * the rows of every table together, and what each named query counts. The retention suites
 * measure what a run of sign-ins leaves behind with it.
 */
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';

/** `queries` are `SELECT COUNT(*) AS n …` statements; `total` is every row of every table. */
export function sqliteCounts<K extends string>(dataDir: string, queries: Record<K, string>): Record<K | 'total', number> {
  const db = new DatabaseSync(join(dataDir, 'app.sqlite'), { readOnly: true });
  try {
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as Array<{ name: string }>).map((r) => r.name);
    const count = (sql: string) => Number((db.prepare(sql).get() as { n: number }).n);
    const named = Object.fromEntries(Object.entries<string>(queries).map(([name, sql]) => [name, count(sql)])) as Record<K, number>;
    return { ...named, total: tables.reduce((sum, t) => sum + count(`SELECT COUNT(*) AS n FROM "${t}"`), 0) };
  } finally {
    db.close();
  }
}
