// Preloaded into service processes by `pnpm soak` (with --expose-gc): SIGUSR2 runs a full
// collection, so each sample measures what is still reachable, not where the GC saw-tooth stands.
process.on('SIGUSR2', () => {
  if (typeof global.gc === 'function') global.gc();
});
