// `npm start`: compile the server (well under a second) unless it is compiled already from the
// sources as they are, and run it in this process, so signals reach it directly.
import { pathToFileURL } from 'node:url';
import { buildServer, bundleIsCurrent, serverBundle } from './build-server.mjs';

if (!bundleIsCurrent()) {
  await buildServer();
  // esbuild's service process (some 30 MB) otherwise stays beside the server for good.
  await (await import('esbuild')).stop();
}
process.setSourceMapsEnabled(true);
await import(pathToFileURL(serverBundle).href);
