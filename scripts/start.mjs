// `npm start`: compile the server (well under a second) and run it in this process, so signals
// reach it directly.
import { pathToFileURL } from 'node:url';
import { buildServer } from './build-server.mjs';

const bundle = await buildServer();
process.setSourceMapsEnabled(true);
await import(pathToFileURL(bundle).href);
