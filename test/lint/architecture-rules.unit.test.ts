/**
 * Proves the architecture rules in biome.jsonc fire: the project's Biome config is copied into a
 * temporary tree holding probe files under src/, static/, host/ and test/, and `biome lint` must
 * report exactly the forbidden imports. Nothing is written inside the repository. host/ probes
 * check its layers: a module imports only the layers below it (docs/architecture.md).
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const biome = join(root, 'node_modules', '.bin', 'biome');

const probes: Record<string, string> = {
  'src/auth/node-prefixed.ts': "import { readFileSync } from 'node:fs';\nexport const read = readFileSync;\n",
  'src/auth/node-bare.ts': "import { join } from 'path';\nexport const joined = join;\n",
  'src/counter/from-host.ts': "import { log } from '../../host/log.ts';\nexport const logged = log;\n",
  'src/counter/dynamic-from-host.ts': "export const loaded = await import('../../host/log.ts');\n",
  'src/counter/allowed.ts': "import { helper } from './helper.ts';\nexport const used = helper;\n",
  'static/client/node-in-browser.ts': "import { readFile } from 'node:fs/promises';\nexport const read = readFile;\n",
  'host/storage/from-src.ts': "import { buildApp } from '../../src/app.ts';\nexport const app = buildApp;\n",
  'host/storage/allowed.ts': "import { readFileSync } from 'node:fs';\nimport { log } from '../log.ts';\nexport const both = [readFileSync, log];\n",
  'src/contract/node-in-contract.ts': "import { readFileSync } from 'node:fs';\nexport const read = readFileSync;\n",
  'src/contract/from-host.ts': "import { log } from '../../host/log.ts';\nexport const logged = log;\n",
  'src/contract/from-counter.ts': "import { view } from '../counter/view.ts';\nexport const viewed = view;\n",
  'src/contract/allowed.ts': "import { parse } from './parse.ts';\nexport const parsed = parse;\n",
  'host/storage/from-contract.ts': "import { parse } from '../../src/contract/parse.ts';\nexport const parsed = parse;\n",
  'host/net/from-http.ts': "import { startServer } from '../http/server.ts';\nexport const up = startServer;\n",
  'host/net/from-config.ts': "import { OPTIONS } from '../config.ts';\nexport const up = OPTIONS;\n",
  'host/storage/sqlite/from-admission.ts': "import { FairShare } from '../../admission/fair-share.ts';\nexport const beside = FairShare;\n",
  'host/leases/from-storage.ts': "import type { StorageBackend } from '../storage/types.ts';\nexport type Up = StorageBackend;\n",
  'host/guest/from-relay.ts': "import { relay } from '../relay/relay.ts';\nexport const up = relay;\n",
  'host/admission/from-guest.ts': "import { InstancePool } from '../guest/pool.ts';\nexport const up = InstancePool;\n",
  'host/config.ts': "import { InstancePool } from './guest/pool.ts';\nexport const up = InstancePool;\n",
  'host/http/downward.ts':
    "import { FairShare } from '../admission/fair-share.ts';\nimport { InstancePool } from '../guest/pool.ts';\nimport type { NodeRequest } from '../net/node-http.ts';\nimport { OPTIONS } from '../config.ts';\nimport { log } from '../log.ts';\nexport type R = NodeRequest;\nexport const down = [FairShare, InstancePool, OPTIONS, log];\n",
  'host/storage/sqlite/downward.ts':
    "import type { HeldLease } from '../../leases/port.ts';\nimport { StorageFailure } from '../../platform-answer.ts';\nexport type H = HeldLease;\nexport const down = StorageFailure;\n",
  'host/admission/reach-up.unit.test.ts': "import { InstancePool } from '../guest/pool.ts';\nexport const tested = InstancePool;\n",
  'test/anything-goes.ts': "import { readFileSync } from 'node:fs';\nimport { buildApp } from '../src/app.ts';\nexport const both = [readFileSync, buildApp];\n",
};

let dir = '';
let findings: Array<{ path: string; rule: string }> = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lint-rules-'));
  copyFileSync(join(root, 'biome.jsonc'), join(dir, 'biome.jsonc'));
  for (const [path, text] of Object.entries(probes)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  // The temporary tree is no git checkout, so the config's VCS integration is switched off here.
  const run = spawnSync(biome, ['lint', '--vcs-enabled=false', '--reporter=json', '--max-diagnostics=none', '.'], { cwd: dir, encoding: 'utf8' });
  const report = JSON.parse(run.stdout) as { diagnostics: Array<{ category: string; location: { path: string } }> };
  findings = report.diagnostics.map((d) => ({ path: d.location.path, rule: d.category }));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('architecture rules (biome.jsonc)', () => {
  it('rejects Node built-ins in src/ and static/, with or without the node: prefix', () => {
    expect(findings).toContainEqual({ path: 'src/auth/node-prefixed.ts', rule: 'lint/correctness/noNodejsModules' });
    expect(findings).toContainEqual({ path: 'src/auth/node-bare.ts', rule: 'lint/correctness/noNodejsModules' });
    expect(findings).toContainEqual({ path: 'static/client/node-in-browser.ts', rule: 'lint/correctness/noNodejsModules' });
  });

  it('holds src/contract/ (imported by the component and the host) to the component rules, and to no imports of the project', () => {
    expect(findings).toContainEqual({ path: 'src/contract/node-in-contract.ts', rule: 'lint/correctness/noNodejsModules' });
    expect(findings).toContainEqual({ path: 'src/contract/from-host.ts', rule: 'lint/style/noRestrictedImports' });
    expect(findings).toContainEqual({ path: 'src/contract/from-counter.ts', rule: 'lint/style/noRestrictedImports' });
  });

  it('rejects imports from host/ in src/, static or dynamic', () => {
    expect(findings).toContainEqual({ path: 'src/counter/from-host.ts', rule: 'lint/style/noRestrictedImports' });
    expect(findings).toContainEqual({ path: 'src/counter/dynamic-from-host.ts', rule: 'lint/style/noRestrictedImports' });
  });

  it('rejects imports from src/ in host/', () => {
    expect(findings).toContainEqual({ path: 'host/storage/from-src.ts', rule: 'lint/style/noRestrictedImports' });
  });

  it('holds host/ to its layers: nothing imports a layer above its own, nor a folder beside it', () => {
    for (const path of [
      'host/net/from-http.ts',
      'host/net/from-config.ts',
      'host/storage/sqlite/from-admission.ts',
      'host/leases/from-storage.ts',
      'host/guest/from-relay.ts',
      'host/admission/from-guest.ts',
      'host/config.ts',
    ]) {
      expect(findings).toContainEqual({ path, rule: 'lint/style/noRestrictedImports' });
    }
  });

  it("reports nothing else: local imports, node: in the host, src/contract/ in the host, imports down the host's layers, and test code are allowed", () => {
    expect([...new Set(findings.map((f) => f.path))].sort()).toEqual([
      'host/admission/from-guest.ts',
      'host/config.ts',
      'host/guest/from-relay.ts',
      'host/leases/from-storage.ts',
      'host/net/from-config.ts',
      'host/net/from-http.ts',
      'host/storage/from-src.ts',
      'host/storage/sqlite/from-admission.ts',
      'src/auth/node-bare.ts',
      'src/auth/node-prefixed.ts',
      'src/contract/from-counter.ts',
      'src/contract/from-host.ts',
      'src/contract/node-in-contract.ts',
      'src/counter/dynamic-from-host.ts',
      'src/counter/from-host.ts',
      'static/client/node-in-browser.ts',
    ]);
  });
});
