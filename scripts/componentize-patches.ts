/**
 * A patch to the JavaScript bindings that componentize-js (0.23) generates for the guest's WIT
 * imports, applied while the component is built (the bindings are evaluated into the snapshot, so
 * the built component carries the fix; nothing changes at run time).
 *
 * The canonical ABI makes the caller own the memory it lowers arguments into: a string or list
 * argument is allocated in the guest's linear memory, the callee reads (copies) it during the
 * call, and the caller frees it after the call returns
 * (https://github.com/WebAssembly/component-model/blob/main/design/mvp/CanonicalABI.md, "lower").
 * The generated bindings allocate with `$realloc` and never free: every string and list that
 * guest code passes to an import (each response body chunk, each header list, each storage key,
 * JSON document and event) stays allocated for the instance's life, ~5 KiB per GET here
 * (docs/memory.md). componentize-js 0.19 freed them in `post_call`; 0.20 dropped that because it
 * also freed import results still in use (ComponentizeJS #319), which left arguments unfreed.
 *
 * The patch routes argument allocations through `_argRealloc`, which remembers them, and frees
 * what it remembered right after each import call returns (`_argFree`). Results are untouched:
 * the bindings already free those after lifting them.
 */
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';

const IMPORT_CALL = /^(\s*)((?:ret = )?\$import_[A-Za-z0-9_$]+\([^;\n]*\);)$/gm;
const LIST_ALLOC = '$realloc(0, 0,';
const STRING_ALLOC = /_utf8AllocateAndEncode\(([^,()]+), \$realloc, \$memory\)/g;
const BINDINGS_LINE = /^let \[\$memory, \$realloc, \$dealloc, [^\n]*\] = \$bindings;$/m;

const HELPERS = `
// Patched by scripts/componentize-patches.ts: import arguments are freed after each import call.
const _argAllocs = [];
function _argRealloc(old, oldSize, align, size) {
  const ptr = $realloc(old, oldSize, align, size);
  _argAllocs.push(ptr, size, align);
  return ptr;
}
function _argFree() {
  for (let i = 0; i < _argAllocs.length; i += 3) if (_argAllocs[i + 1] > 0) $dealloc(_argAllocs[i], _argAllocs[i + 1], _argAllocs[i + 2]);
  _argAllocs.length = 0;
}
`;

/** Frees import arguments after each call; throws when the bindings no longer have the expected shape. */
export function patchImportArgumentFrees(bindings: string): string {
  const header = bindings.match(BINDINGS_LINE);
  if (!header) throw new Error('componentize-js bindings changed: expected the `let [$memory, $realloc, $dealloc, …] = $bindings` line');
  const calls = bindings.match(IMPORT_CALL)?.length ?? 0;
  if (calls === 0) throw new Error('componentize-js bindings changed: no `$import_…(…);` call statements found');
  // Every argument allocation must precede an import call within the same top-level function,
  // so that the free after that call covers it (nothing else in the bindings may use them).
  const sites = [...bindings.matchAll(/\$realloc\(0, 0,|_utf8AllocateAndEncode\([^,()]+, \$realloc, \$memory\)/g)];
  for (const site of sites) {
    const rest = bindings.slice(site.index);
    const nextCall = rest.search(/\$import_[A-Za-z0-9_$]+\(/);
    const nextTopLevel = rest.search(/\n(?:function |class |export |const |let )/);
    if (nextCall < 0 || (nextTopLevel >= 0 && nextTopLevel < nextCall)) {
      throw new Error('componentize-js bindings changed: an allocation is not followed by an import call; re-check patchImportArgumentFrees');
    }
  }
  let out = bindings.replaceAll(LIST_ALLOC, '_argRealloc(0, 0,').replace(STRING_ALLOC, '_utf8AllocateAndEncode($1, _argRealloc, $memory)');
  out = out.replace(IMPORT_CALL, '$1$2\n$1_argFree();');
  return out.replace(header[0], `${header[0]}\n${HELPERS}`);
}

interface Splicer {
  spliceBindings(...args: unknown[]): { jsBindings: string } & Record<string, unknown>;
}

/**
 * Makes componentize-js's own `splicer` (the module its `componentize()` imports; the package's
 * exports map hides the path, so it is loaded by file URL) return patched bindings.
 */
export async function installComponentizePatches(root: string): Promise<void> {
  const url = pathToFileURL(join(root, 'node_modules', '@bytecodealliance', 'componentize-js', 'lib', 'spidermonkey-embedding-splicer.js')).href;
  const { splicer } = (await import(url)) as { splicer: Splicer & { patched?: boolean } };
  if (splicer.patched) return;
  const original = splicer.spliceBindings.bind(splicer);
  splicer.spliceBindings = (...args: unknown[]) => {
    const result = original(...args);
    return { ...result, jsBindings: patchImportArgumentFrees(result.jsBindings) };
  };
  splicer.patched = true;
}
