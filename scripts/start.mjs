// `npm start`: compile the server (well under a second) unless it is compiled already from the
// sources as they are, and run it in this process, so signals reach it directly.
import { pathToFileURL } from 'node:url';
import { buildServer, bundleIsCurrent, serverBundle } from './build-server.mjs';

const bundle = bundleIsCurrent() ? serverBundle : await buildServer();
process.setSourceMapsEnabled(true);
await import(pathToFileURL(bundle).href);
