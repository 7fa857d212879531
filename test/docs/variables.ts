/** The variables the component reads, found in its source: what docs/configuration.md and .env.example must name. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './markdown.ts';

const source = (path: string) => readFileSync(join(ROOT, path), 'utf8');
/** Files that build provider variables as `${prefix}_SUFFIX`. */
const PROVIDER_SOURCES = ['src/auth/oauth/config.ts', 'src/auth/oauth/provider-label.ts'];

export function authVariables(): { names: string[]; providerSuffixes: string[] } {
  const plain = [...source('src/auth/config.ts').matchAll(/^\s+(AUTH_[A-Z0-9_]+):/gm)].map((m) => m[1] ?? '');
  const oauth = [...source('src/auth/oauth/config.ts').matchAll(/'(AUTH_[A-Z0-9_]+)'/g)].map((m) => m[1] ?? '');
  const suffixes = PROVIDER_SOURCES.flatMap((path) => [...source(path).matchAll(/\$\{[^}]+\}_([A-Z0-9_]+)/g)].map((m) => `_${m[1] ?? ''}`));
  return { names: [...new Set([...plain, ...oauth])], providerSuffixes: [...new Set(suffixes)] };
}

/** The component's own variables besides AUTH_* (src/config.ts): the counter's (`COUNTER_WRITES`). */
export function counterVariables(): string[] {
  return [...source('src/config.ts').matchAll(/^\s+(COUNTER_[A-Z0-9_]+):/gm)].map((m) => m[1] ?? '');
}
