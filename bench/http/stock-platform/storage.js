// The project's imports mapped to synchronous implementations over the SQLite backend, for the
// stock preview2-shim HTTPServer (what `jco serve` runs). Errors are thrown with a `payload`, as jco expects.
import { join } from 'node:path';
import { openSqliteStorage } from '../../../host/storage/sqlite/index.ts';

export const storage = openSqliteStorage({ path: join(process.env.DATA_DIR ?? './data/bench-stock', 'app.sqlite') });
