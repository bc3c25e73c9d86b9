import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

const COMPRESSIBLE = /\.(js|css|html|svg|json|webmanifest|txt)$/;
// Below this, compression saves less than the headers it costs.
const MIN_BYTES = 1024;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

/** Writes the .br and .gz twins of one file, as a build (or a deployment in a test) leaves them. */
export function writeCompressedTwins(file: string): void {
  const body = readFileSync(file);
  writeFileSync(`${file}.br`, brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }));
  writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
}

/**
 * Writes a .br and a .gz next to every text file of the build, once, at the best levels, so the
 * server sends compressed bytes without compressing per request (@fastify/static preCompressed).
 * Runs after every other plugin, so the service worker the PWA plugin builds last is included.
 */
export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'home-guard-precompress',
    apply: 'build',
    configResolved: (config) => void (outDir = path.resolve(config.root, config.build.outDir)),
    closeBundle: {
      order: 'post',
      sequential: true,
      handler() {
        for (const file of filesUnder(outDir)) {
          if (COMPRESSIBLE.test(file) && statSync(file).size >= MIN_BYTES) writeCompressedTwins(file);
        }
      },
    },
  };
}
