import { parentPort, workerData } from 'node:worker_threads';
import { Re2Engine } from './re2-engine';
import type { CompileRequest, CompileThreadData, CompileThreadMessage } from './pattern-compile-thread';

/**
 * The thread of pattern-compile-thread.ts: compiles a schema's patterns on an RE2 engine of
 * its own, so that the main thread can give up on them after the budget. Whether a pattern is
 * valid does not matter here: only the ones compiled in time are compiled again on the main
 * thread, which reports what RE2 says about them.
 */
const port = parentPort!;
const progress = new Int32Array((workerData as CompileThreadData).progress);
const engine = new Re2Engine();
const post = (message: CompileThreadMessage) => port.postMessage(message);

// Loads the wasm instance before the first timed request.
engine.compile('^[a-z]+$', 'u');
post({ ready: true });

port.on('message', ({ id, patterns }: CompileRequest) => {
  patterns.forEach((pattern, index) => {
    Atomics.store(progress, 0, index);
    try {
      engine.compile(pattern, 'u');
    } catch {
      // Invalid, or too large for a heap: the main thread's compile says which.
    }
  });
  post({ done: id });
});
