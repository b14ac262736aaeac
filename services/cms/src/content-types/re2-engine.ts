import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import vm from 'node:vm';
import type { RE2 } from 're2-wasm';

/**
 * Tenant regexes on RE2 (linear time) across separate re2-wasm instances.
 *
 * re2-wasm is an Emscripten build with a fixed 16 MiB heap that cannot grow, and it frees
 * nothing: an `RE2` never deletes its Embind wrapper, a pattern that fails to compile leaks
 * its wrapper inside the constructor, and so does the group-name map every compile reads.
 * One instance shared by the process ran out after some thousands of compiles and then
 * failed every pattern of every project until a restart. Here:
 *  - what we can reach is freed: the wrappers of failed compiles and the group-name maps at
 *    once, the wrapper of each `RE2` when that object is garbage (FinalizationRegistry);
 *  - when an instance is exhausted anyway (it aborts: a WebAssembly RuntimeError, unlike the
 *    SyntaxError of an invalid pattern), new compiles move to a fresh instance with a heap of
 *    its own and the failed one is never entered again: it lives on only through validators
 *    that hold its regexes (ValidatorCache recompiles those at their next use) and is
 *    collected with them.
 * `require` caches a module (and jest keeps a registry of its own), so each instance
 * evaluates the package's two files itself.
 */

export type Re2Regex = RE2;

/** A pattern that RE2 could not compile within one instance's heap. */
export class PatternTooLargeError extends SyntaxError {
  constructor(pattern: string) {
    const shown = pattern.length > 60 ? `${pattern.slice(0, 60)}...` : pattern;
    super(`Invalid regular expression: /${shown}/: pattern needs too much memory`);
    this.name = 'PatternTooLargeError';
  }
}

interface EmbindHandle {
  delete(): void;
  isDeleted(): boolean;
}
interface CppVector<V> extends EmbindHandle {
  get(index: number): V;
  size(): number;
}
interface CppMap<K, V> extends EmbindHandle {
  keys(): CppVector<K>;
  get(key: K): V;
}
interface WrappedRE2 extends EmbindHandle {
  capturingGroupNames(): CppMap<number, string>;
}
interface WasmModule {
  WrappedRE2: (new (pattern: string, ignoreCase: boolean, multiline: boolean, dotAll: boolean) => WrappedRE2) & {
    prototype: WrappedRE2;
  };
}
/** The WebAssembly global, typed here: the project's lib (ES2023, no DOM) does not declare it. */
interface WasmInstance {
  exports: object;
}
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => WasmInstance;
}
const wasmApi = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

interface EmscriptenOverrides {
  print(text: string): void;
  printErr(text: string): void;
  onAbort(what: unknown): void;
  instantiateWasm(imports: object, receive: (instance: WasmInstance, module: object) => void): object;
}

const classFile = require.resolve('re2-wasm');
// The file the RE2 class loads as '../wasm/re2' (the Emscripten glue).
const wasmGlueFile = path.join(path.dirname(classFile), '../wasm/re2.js');
const requireFromGlue = createRequire(wasmGlueFile);
const requireFromClass = createRequire(classFile);
// Emscripten's glue finds re2.wasm next to itself (scriptDirectory = __dirname); it is read
// and compiled once, each instance only instantiates it with a memory of its own.
let compiledWasm: object | undefined;
const wasmModule = (): object =>
  (compiledWasm ??= new wasmApi.Module(readFileSync(path.join(path.dirname(wasmGlueFile), 're2.wasm'))));

const commonJsParams = ['exports', 'require', 'module', '__filename', '__dirname'];
let glueFactory: ((...args: unknown[]) => void) | undefined;
let classFactory: ((...args: unknown[]) => void) | undefined;
const compileCommonJs = (file: string, extraParams: string[] = []) =>
  vm.compileFunction(readFileSync(file, 'utf8'), [...commonJsParams, ...extraParams], {
    filename: file,
  }) as (...args: unknown[]) => void;

function evaluate(
  factory: (...args: unknown[]) => void,
  file: string,
  requireFn: (id: string) => unknown,
  extra: unknown[] = [],
): unknown {
  const module = { exports: {} as unknown };
  factory(module.exports, requireFn, module, file, path.dirname(file), ...extra);
  return module.exports;
}

/** One re2-wasm module with its own heap, and the RE2 class bound to it. */
class Re2Instance {
  aborted = false;
  private readonly RE2: new (pattern: string, flags: string) => RE2;
  private readonly wasm: WasmModule;
  /** Handles the RE2 constructor created during the compile in progress. */
  private pending: WrappedRE2[] = [];
  private readonly finalizer = new FinalizationRegistry<WrappedRE2>((wrapper) => this.release(wrapper));
  private liveCount = 0;
  /** Patterns compiled here so far. */
  compiled = 0;

  constructor() {
    const overrides: EmscriptenOverrides = {
      // The abort text (sizes, build flags) is the library's, not something to log per tenant.
      print: () => undefined,
      printErr: () => undefined,
      onAbort: () => {
        this.aborted = true;
      },
      instantiateWasm: (imports, receive) => {
        const instance = new wasmApi.Instance(wasmModule(), imports);
        receive(instance, wasmModule());
        return instance.exports;
      },
    };
    glueFactory ??= compileCommonJs(wasmGlueFile, ['Module']);
    this.wasm = evaluate(glueFactory, wasmGlueFile, requireFromGlue, [overrides]) as WasmModule;
    classFactory ??= compileCommonJs(classFile);
    const exported = evaluate(classFactory, classFile, (id) =>
      id === '../wasm/re2' ? this.trackedWasm() : requireFromClass(id),
    );
    this.RE2 = (exported as { RE2: new (pattern: string, flags: string) => RE2 }).RE2;
  }

  /** RE2 objects of this instance not yet collected. */
  get live(): number {
    return this.liveCount;
  }

  compile(pattern: string, flags: string): RE2 {
    this.pending = [];
    try {
      const regex = new this.RE2(pattern, flags);
      this.finalizer.register(regex, this.pending[0]);
      this.liveCount += 1;
      this.compiled += 1;
      return regex;
    } catch (error) {
      // The constructor threw after creating its wrapper: nothing else can reach it.
      for (const handle of this.pending) this.deleteOnce(handle);
      throw error;
    } finally {
      this.pending = [];
    }
  }

  /** The module the RE2 class sees: wrappers are recorded, the group-name map is copied and freed. */
  private trackedWasm(): WasmModule {
    const { WrappedRE2: Wrapped } = this.wasm;
    const readGroupNames = Wrapped.prototype.capturingGroupNames;
    const record = (wrapper: WrappedRE2) => this.pending.push(wrapper);
    Wrapped.prototype.capturingGroupNames = function (this: WrappedRE2) {
      const map = readGroupNames.call(this);
      const keys = map.keys();
      const numbers: number[] = [];
      const names = new Map<number, string>();
      for (let i = 0; i < keys.size(); i++) {
        numbers.push(keys.get(i));
        names.set(keys.get(i), map.get(keys.get(i)));
      }
      keys.delete();
      map.delete();
      const copy = {
        keys: () => ({ size: () => numbers.length, get: (i: number) => numbers[i] }),
        get: (n: number) => names.get(n),
      };
      return copy as unknown as CppMap<number, string>;
    };
    const Tracked = function (pattern: string, ignoreCase: boolean, multiline: boolean, dotAll: boolean) {
      const wrapper = new Wrapped(pattern, ignoreCase, multiline, dotAll);
      record(wrapper);
      return wrapper;
    };
    return { WrappedRE2: Tracked as unknown as WasmModule['WrappedRE2'] };
  }

  private release(wrapper: WrappedRE2): void {
    this.liveCount -= 1;
    this.deleteOnce(wrapper);
  }

  /** An aborted instance is never entered again; its heap goes with the instance. */
  private deleteOnce(handle: EmbindHandle): void {
    if (this.aborted || handle.isDeleted()) return;
    try {
      handle.delete();
    } catch {
      this.aborted = true;
    }
  }
}

/** A wasm trap or Emscripten abort: the instance is unusable, the pattern may be fine. */
const isInstanceFailure = (error: unknown, instance: Re2Instance) =>
  instance.aborted || (error instanceof Error && error.name === 'RuntimeError');

/** Hands out RE2 regexes, moving to a fresh instance when the current one is exhausted. */
export class Re2Engine {
  private current: Re2Instance | undefined;
  private readonly instanceOf = new WeakMap<RE2, Re2Instance>();
  private instancesCreated = 0;

  compile(pattern: string, flags: string): RE2 {
    const instance = this.instance();
    try {
      return this.attempt(instance, pattern, flags);
    } catch (error) {
      if (!(error instanceof InstanceFailure)) throw error;
      // A heap that held nothing else: a fresh one would fail the same way.
      if (instance.compiled === 0) throw new PatternTooLargeError(pattern);
    }
    try {
      return this.attempt(this.instance(), pattern, flags);
    } catch (error) {
      // Twice on a heap of its own: the pattern alone is more than an instance can hold.
      if (error instanceof InstanceFailure) throw new PatternTooLargeError(pattern);
      throw error;
    }
  }

  /** False once the instance that compiled this regex has failed: compile the pattern again. */
  isUsable(regex: RE2): boolean {
    return this.instanceOf.get(regex)?.aborted === false;
  }

  /**
   * Leaves the current instance as if it had failed: after a request was stopped at its time
   * budget (it may have been stopped inside RE2, its heap half changed), no regex enters it
   * again; its validators are compiled afresh on a new instance when next used.
   */
  retire(): void {
    if (this.current) this.current.aborted = true;
  }

  /** How many instances were loaded (the first one included). */
  get instances(): number {
    return this.instancesCreated;
  }

  /** RE2 objects of the current instance not yet collected. */
  get liveInCurrent(): number {
    return this.current?.live ?? 0;
  }

  private instance(): Re2Instance {
    if (!this.current || this.current.aborted) {
      this.current = new Re2Instance();
      this.instancesCreated += 1;
    }
    return this.current;
  }

  private attempt(instance: Re2Instance, pattern: string, flags: string): RE2 {
    try {
      const regex = instance.compile(pattern, flags);
      this.instanceOf.set(regex, instance);
      return regex;
    } catch (error) {
      if (!isInstanceFailure(error, instance)) throw error;
      instance.aborted = true;
      throw new InstanceFailure();
    }
  }
}

class InstanceFailure extends Error {}

/** The process's engine: every tenant pattern compiles here. */
export const re2Engine = new Re2Engine();
