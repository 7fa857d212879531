import { describe, expect, it } from 'vitest';
import { patchDebugLog, patchSubtaskDrop, patchSyncImports } from './jco-patches.ts';

// The shapes jco 1.35 writes, trimmed: the debug-log guard, the lowering helper, one synchronous
// trampoline (with the task prologue), one JSPI (async) trampoline, and their bindings.
const syncTrampoline = `  const _trampoline6 = function() {
    _debugLog('[iface="wasi:clocks/monotonic-clock@0.2.12", function="now"] [Instruction::CallInterface] (sync, @ enter)');
    const hostProvided = true;
    
    let parentTask;
    let task;
    let subtask;
    
    taskCreation: {
      parentTask = getCurrentTask(0, 0)?.task;
      task = createNewCurrentTask();
    }
    
    const started = task.enterSync();
    let ret;
    
    try {
      ret = _withGlobalCurrentTaskMeta({
        componentIdx: task.componentIdx(),
        taskID: task.id(),
        fn: () => _trackHostOperation(() => now()),
      })
      ;
    } catch (err) {
      task.setErrored(err);
      task.reject(err);
      task.exit();
      throw err;
    }
    task.resolve([ret]);
    task.exit();
    return ret;
  }
  _trampoline6.fnName = 'wasi:clocks/monotonic-clock@0.2.12#now';
`;
const asyncTrampoline = `  const _trampoline3 = async function(arg0) {
    const hostProvided = true;
    let task;
    taskCreation: {
      task = createNewCurrentTask();
    }
    const started = await task.enter({ isHost: hostProvided });
    return await block(arg0);
  }
  _trampoline3.fnName = 'wasi:io/poll@0.2.12#block';
  _trampoline3.manuallyAsync = true;
`;
const binding = (n: number) => `  let trampoline${n} = _trampoline${n}.manuallyAsync ? new WebAssembly.Suspending(_suspendingImport(0, _lowerImportBackwardsCompat.bind(
  null,
  { importFn: _trampoline${n}, isAsync: false, isManualAsync: _trampoline${n}.manuallyAsync, funcTypeIsAsync: false },
  ))) : _lowerImportBackwardsCompat.bind(
  null,
  { importFn: _trampoline${n}, isAsync: false, isManualAsync: _trampoline${n}.manuallyAsync, funcTypeIsAsync: false },
  );
`;
const glue = `  const _debugLog = (...args) => {
    if (!globalThis?.process?.env?.JCO_DEBUG) { return; }
  };
  function _lowerImportBackwardsCompat(args) { return args.importFn(...[...arguments].slice(1)); }
${syncTrampoline}${asyncTrampoline}${binding(6)}${binding(3)}`;

/** Runs the glue with counting stand-ins for jco's task helpers; returns what the bindings resolved to. */
function run(code: string) {
  const calls = { tasks: 0, now: 0 };
  const scope = {
    createNewCurrentTask: () => {
      calls.tasks++;
      return { enterSync: () => true, componentIdx: () => 0, id: () => 1, resolve() {}, exit() {}, setErrored() {}, reject() {} };
    },
    getCurrentTask: () => undefined,
    _withGlobalCurrentTaskMeta: (args: { fn: () => unknown }) => args.fn(),
    _trackHostOperation: (f: () => unknown) => f(),
    _suspendingImport: (_i: number, f: unknown) => f,
    now: () => ++calls.now,
    block: async () => undefined,
    WebAssembly: {
      Suspending: class {
        f: unknown;
        constructor(f: unknown) {
          this.f = f;
        }
      },
    },
  };
  const body = `${code}\nreturn { trampoline6, trampoline3, _trampoline6 };`;
  const bindings = new Function(...Object.keys(scope), body)(...Object.values(scope)) as { trampoline6: () => number; trampoline3: unknown; _trampoline6: unknown };
  return { bindings, calls };
}

describe('jco patches', () => {
  it('reads JCO_DEBUG once instead of on every log call', () => {
    const patched = patchDebugLog(glue);
    expect(patched).toContain('const _jcoDebug = Boolean(globalThis?.process?.env?.JCO_DEBUG);');
    expect(patched).toContain('if (!_jcoDebug) { return; }');
  });

  it('binds synchronous imports directly, with no task bookkeeping, and returns the same result', () => {
    const before = run(glue);
    expect(before.bindings.trampoline6()).toBe(1);
    expect(before.calls.tasks).toBe(1);

    const { code, patched } = patchSyncImports(glue);
    expect(patched).toBe(1);
    const after = run(code);
    expect(after.bindings.trampoline6).toBe(after.bindings._trampoline6);
    expect(after.bindings.trampoline6()).toBe(1);
    expect(after.calls.tasks).toBe(0);
  });

  it('leaves JSPI-suspending imports on the full path', () => {
    const { code } = patchSyncImports(glue);
    expect(code).toContain(asyncTrampoline);
    expect(run(code).bindings.trampoline3).toBeInstanceOf(Object);
    expect(code).not.toContain('_trampoline3.syncFast');
  });

  it('skips a subtask drop that would throw, and still drops one that would not', () => {
    // AsyncSubtask#onResolve's tail as jco writes it, inside a class so `#waitable` resolves.
    const subtaskClass = (tail: string) => `return class Subtask {
      #waitable;
      drops = 0;
      constructor(pending) { this.#waitable = { hasPendingEvent: () => pending }; }
      drop() { this.drops++; if (this.#waitable.hasPendingEvent()) throw new Error('waitables with pending events cannot be dropped'); }
      onResolve() {
            try {
${tail}
            }
      }
    }`;
    const tail = `              this.drop();
            } catch (err) {
              _debugLog('[AsyncSubtask#onResolve()] failed to remove subtask after sync subtask completion', err);`;
    const patched = patchSubtaskDrop(tail);
    const make = (code: string) => new Function('_debugLog', subtaskClass(code))(() => undefined) as new (pending: boolean) => { drops: number; onResolve(): void };
    for (const [code, pendingDrops] of [
      [tail, 1],
      [patched, 0],
    ] as const) {
      const Subtask = make(code);
      const pending = new Subtask(true);
      pending.onResolve();
      expect(pending.drops).toBe(pendingDrops);
      const settled = new Subtask(false);
      settled.onResolve();
      expect(settled.drops).toBe(1);
    }
  });

  it('fails the build when jco changes the shapes it patches', () => {
    expect(() => patchSubtaskDrop('this.drop();')).toThrow(/jco output changed/);
    expect(() => patchSyncImports(glue.replace('const started = task.enterSync();', 'const started = task.enterSyncV2();'))).toThrow(/jco output changed/);
    expect(() => patchSyncImports(glue.replace('function _lowerImportBackwardsCompat', 'function _lowerImport'))).toThrow(/jco output changed/);
    expect(() => patchDebugLog(glue.replace('JCO_DEBUG) { return; }', 'JCO_DEBUG) return;'))).toThrow(/jco output changed/);
  });
});
