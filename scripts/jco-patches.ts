// biome-ignore-all lint/complexity/noAdjacentSpacesInRegex: the patterns match jco's output, indentation included.
/**
 * Patches to the JavaScript that `jco transpile` (1.35) writes for the Node host. Neither
 * changes what a call does; both take per-call overhead off the hot path. Each one checks that
 * jco's output still has the shape it expects and fails the build otherwise, so a jco upgrade
 * can never drop a patch silently (re-measure with `npm run bench` after an upgrade).
 */

/**
 * jco's glue calls `_debugLog` several times on every import call, and each call reads
 * `process.env.JCO_DEBUG`, which on Node is a native lookup. Reading it once at load keeps the
 * same behaviour and took ~20% off a GET.
 */
export function patchDebugLog(code: string): string {
  const original = '    if (!globalThis?.process?.env?.JCO_DEBUG) { return; }';
  const at = code.indexOf(original);
  if (at < 0 || code.indexOf(original, at + 1) >= 0) throw new Error('jco output changed: expected one _debugLog guard');
  return code
    .replace(original, '    if (!_jcoDebug) { return; }')
    .replace('  const _debugLog = (...args) => {', '  const _jcoDebug = Boolean(globalThis?.process?.env?.JCO_DEBUG);\n  const _debugLog = (...args) => {');
}

/**
 * jco 1.35 runs every import call through the component-model-async task machinery: a subtask
 * in the caller's task, a new task for the callee, global current-task bookkeeping, several
 * objects and Map operations. For a synchronous import of a WASI 0.2 component (no async ABI,
 * nothing can suspend) none of it has an effect, yet it costs ~5 µs per call, and StarlingMonkey
 * calls `monotonic-clock.now` twice for every promise it creates (async stack capture), so a GET
 * made ~60 such calls. The patch gives synchronous trampolines a no-op task and binds them
 * directly; JSPI-suspending (`--async-imports`) trampolines keep the full machinery.
 */
export function patchSyncImports(code: string): { code: string; patched: number } {
  const trampoline = /  const (_trampoline\d+) = function\(([^)]*)\) \{\n([\s\S]*?)\n  \1\.fnName = '([^']*)';\n/g;
  const prologue = /    const hostProvided = true;\n[\s\S]*?\n    const started = task\.enterSync\(\);\n/;
  let patched = 0;
  let out = code.replace(trampoline, (whole, name: string, params: string, body: string, fnName: string) => {
    if (!body.includes('task.enterSync()')) return whole; // an async (JSPI) trampoline: untouched
    const matches = body.match(new RegExp(prologue.source, 'g'));
    const calls = body.split('_withGlobalCurrentTaskMeta({').length - 1;
    if (matches?.length !== 1 || calls !== 1) throw new Error(`jco output changed: unexpected sync trampoline shape for ${fnName}`);
    patched++;
    const lean = body.replace(prologue, '    const task = _SYNC_IMPORT_TASK;\n').replace('_withGlobalCurrentTaskMeta({', '_runSyncImport({');
    return `  const ${name} = function(${params}) {\n${lean}\n  ${name}.fnName = '${fnName}';\n  ${name}.syncFast = true;\n`;
  });
  const syncBinding = '))) : _lowerImportBackwardsCompat.bind(\n  null,';
  const bindings = out.split(syncBinding).length - 1;
  const trampolines = (code.match(/  let trampoline\d+ = _trampoline\d+\.manuallyAsync \? /g) ?? []).length;
  if (patched === 0 || bindings !== trampolines) throw new Error(`jco output changed: ${patched} sync trampolines, ${bindings} of ${trampolines} bindings`);
  out = out.replaceAll(syncBinding, '))) : _bindSyncImport(\n  null,');
  const helpers = `  // Patched by scripts/jco-patches.ts: synchronous imports skip the async task machinery.
  const _SYNC_IMPORT_TASK = Object.freeze({
    componentIdx: () => 0, id: () => 0, getParentSubtask: () => undefined,
    resolve() {}, exit() {}, setErrored() {}, reject() {},
  });
  function _runSyncImport(args) { return args.fn(); }
  function _bindSyncImport(_this, args) {
    const direct = args.importFn.syncFast && !args.isAsync && !args.isManualAsync && !args.funcTypeIsAsync;
    return direct ? args.importFn : _lowerImportBackwardsCompat.bind(null, args);
  }
  
`;
  const anchor = '  function _lowerImportBackwardsCompat(args) {';
  if (out.split(anchor).length !== 2) throw new Error('jco output changed: expected one _lowerImportBackwardsCompat');
  out = out.replace(anchor, helpers + anchor);
  return { code: out, patched };
}

/**
 * When a JSPI-suspending import resolves, jco drops its subtask inside a try/catch; the drop
 * always throws ("waitables with pending events cannot be dropped") and the catch ignores it.
 * Building that Error and its stack cost ~6% of a POST (nine such imports). The patch checks
 * the condition the drop would throw on and skips the call: the same state, no exception.
 */
export function patchSubtaskDrop(code: string): string {
  const original = `              this.drop();
            } catch (err) {
              _debugLog('[AsyncSubtask#onResolve()] failed to remove subtask after sync subtask completion', err);`;
  const guard = '              if (!this.#waitable?.hasPendingEvent()) { this.drop(); }';
  if (code.split(original).length !== 2) throw new Error('jco output changed: expected one subtask drop after a sync subtask completes');
  return code.replace(original, original.replace('              this.drop();', guard));
}

/**
 * jco keeps, per instance, one handle table and one capture map (rep → host object) per resource
 * type; nothing outside the glue can see them. The patch adds `$stats()` to what `instantiate`
 * returns: live handles over every table, host objects still captured, and the core module's
 * linear memory in bytes. The memory tests (test/memory/) and the pool's retirement by size
 * (`--instance-max-memory`) read it; it costs nothing until called.
 */
export function patchInstanceStats(code: string): string {
  const ret = "  return { incomingHandler: incomingHandler0212, 'wasi:http/incoming-handler@0.2.12': incomingHandler0212,  };";
  if (code.split(ret).length !== 2) throw new Error('jco output changed: expected one return of the instance exports');
  if (!code.includes('  memory0 = exports1.memory;')) throw new Error('jco output changed: expected memory0 = exports1.memory');
  const captures = [...code.matchAll(/  const (captureTable\d+)= new Map\(\);\n/g)].map((m) => m[1]!);
  if (captures.length === 0) throw new Error('jco output changed: expected capture tables');
  const stats = `  // Patched by scripts/jco-patches.ts: live handles, captured host objects and linear memory.
  const $stats = () => {
    let handles = 0;
    for (const table of HANDLE_TABLES) {
      if (!table) continue;
      for (let i = 3; i < table.length; i += 2) if (table[i] !== 0 && (table[i - 1] & T_FLAG) === 0) handles++;
    }
    let createdReps = 0;
    for (const table of HANDLE_TABLES) createdReps += table?._createdReps?.size ?? 0;
    return { handles, captured: ${captures.map((c) => `${c}.size`).join(' + ')}, createdReps, memoryBytes: memory0.buffer.byteLength };
  };
`;
  return code.replace(ret, `${stats}  return { incomingHandler: incomingHandler0212, 'wasi:http/incoming-handler@0.2.12': incomingHandler0212, $stats };`);
}

/**
 * jco's `rscTableCreateOwn` adds every rep it hands out to the table's `_createdReps` Set, and
 * nothing ever reads or deletes from it. Host-created resources get ever-increasing reps
 * (`++captureCntN`), so the set gains an entry for every resource an instance ever sees (7 per GET)
 * and never shrinks. The patch drops the write; the set stays empty.
 */
export function patchCreatedReps(code: string): string {
  const write = '    table._createdReps.add(rep);\n';
  if (code.split(write).length !== 2) throw new Error('jco output changed: expected one _createdReps.add in rscTableCreateOwn');
  const readers = code.split('_createdReps').length - 1 - code.split('._createdReps = new Set();').length + 1;
  if (readers !== 1) throw new Error('jco output changed: _createdReps is now read somewhere; re-check patchCreatedReps');
  return code.replace(write, '');
}
