// Runs before the app's modules (a deferred classic script ahead of the module entry in
// index.html). zod probes `new Function` when it builds its first object schema, which happens
// while the modules load; the Content-Security-Policy forbids eval, so the probe was reported as a
// CSP violation on every page. With `jitless` zod parses without the probe.
globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, { jitless: true });
