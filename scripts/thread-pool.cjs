// Loaded with --require, before the server's first module: libuv's thread pool is sized from
// UV_THREADPOOL_SIZE when first used, and Node's ES module loader uses it to read the modules,
// so set from the server's own code it came too late and the pool stayed at 4. One password hash
// per core (server/accounts/passwords.ts), plus two threads that signatures and file reads never
// wait behind.
process.env.UV_THREADPOOL_SIZE ??= String(require('node:os').availableParallelism() + 2);
