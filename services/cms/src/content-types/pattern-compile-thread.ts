import type { Worker } from 'node:worker_threads';
import { spawnServiceWorker } from '@platform/runtime';

/** What the thread is started with: a counter it sets to the index of the pattern it compiles. */
export interface CompileThreadData {
  progress: SharedArrayBuffer;
}
export interface CompileRequest {
  id: number;
  patterns: string[];
}
export type CompileThreadMessage = { ready: true } | { done: number };

/** Starts the worker with the given data; tests hand in one that misbehaves. */
export type SpawnCompileWorker = (workerData: CompileThreadData) => Worker;

/** pattern-compile.worker.ts, from source under tsx and jest, else the bundled thread of the image. */
export const spawnCompileWorker: SpawnCompileWorker = (workerData) =>
  spawnServiceWorker({
    callerFile: __filename,
    source: 'pattern-compile.worker.ts',
    bundled: 'content-types/pattern-compile.worker.js',
    workerData,
  });

/**
 * One worker thread with an RE2 engine of its own, compiling one list of patterns at a time.
 * It never keeps the process alive (unref). If it fails or exits, every promise it gave
 * rejects and it is never used again.
 */
export class PatternCompileThread {
  /** Resolves once the thread can take requests (the wasm loaded: not part of any budget). */
  readonly ready: Promise<void>;
  private readonly worker: Worker;
  private readonly progress = new Int32Array(new SharedArrayBuffer(4));
  private failure: Error | undefined;
  private pending: { id: number; resolve(): void; reject(error: Error): void } | undefined;
  private nextId = 1;

  constructor(spawn: SpawnCompileWorker = spawnCompileWorker) {
    this.worker = spawn({ progress: this.progress.buffer as SharedArrayBuffer });
    let markReady!: () => void;
    let failReady!: (error: Error) => void;
    this.ready = new Promise((resolve, reject) => {
      markReady = resolve;
      failReady = reject;
    });
    // Nobody may wait on `ready` (a thread closed unused): that rejection is not unhandled.
    this.ready.catch(() => undefined);
    this.worker.on('message', (message: CompileThreadMessage) => {
      if ('ready' in message) markReady();
      else if (this.pending?.id === message.done) {
        this.pending.resolve();
        this.pending = undefined;
      }
    });
    const fail = (error: Error) => {
      this.failure ??= error;
      failReady(this.failure);
      this.pending?.reject(this.failure);
      this.pending = undefined;
    };
    // Without an 'error' listener, an exception in the thread would be thrown in this one.
    this.worker.on('error', fail);
    this.worker.on('messageerror', fail);
    this.worker.on('exit', (code) => fail(new Error(`pattern compile thread exited (code ${code})`)));
    // After the listeners: adding a 'message' listener refs the worker's port again.
    this.worker.unref();
  }

  /** False once the thread failed, exited or was terminated. */
  get usable(): boolean {
    return this.failure === undefined;
  }

  /** Index, in the last list sent, of the pattern being compiled (or compiled last). */
  get current(): number {
    return Atomics.load(this.progress, 0);
  }

  /** Resolves when the thread has compiled every pattern (valid or not); one list at a time. */
  compile(patterns: string[]): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.pending) return Promise.reject(new Error('pattern compile thread is busy'));
    const id = this.nextId++;
    Atomics.store(this.progress, 0, 0);
    return new Promise<void>((resolve, reject) => {
      this.pending = { id, resolve, reject };
      this.worker.postMessage({ id, patterns } satisfies CompileRequest);
    });
  }

  /** Stops the thread, even in the middle of a compile. */
  async terminate(): Promise<void> {
    this.failure ??= new Error('pattern compile thread was terminated');
    await this.worker.terminate();
  }
}
