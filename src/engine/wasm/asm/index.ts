/**
 * The wasm backend's kernels, in AssemblyScript, compiled by ../build.ts into one module (twice:
 * with a shared memory for threads, and with a plain one for pages that are not cross-origin
 * isolated). Every export is a kernel over raw byte addresses in the memory the JavaScript side
 * imports (`env.memory`); kernels allocate nothing and keep no state, so any thread may run any of
 * them on the same memory.
 *
 * Threaded kernels end with `(part: i32, parts: i32)` and compute only their share of the outputs
 * (split.ts): each output is computed by one thread with the same loop whatever the split, so the
 * bits do not depend on the number of threads.
 */
export * from './elementwise';
export * from './rows';
export * from './optim';
export * from './attention';
export * from './matmul';
