import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Home Guard's version, from the package.json of the checkout it runs from (the sources or the
 * compiled bundle in build/ alike): said in the log at start, so an operator can tell what an
 * upgrade left running. Not served over HTTP, where it would only help an attacker pick exploits.
 */
export function homeGuardVersion(): string {
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    try {
      const found = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: unknown; version?: unknown };
      if (found.name === 'home-guard' && typeof found.version === 'string') return found.version;
    } catch {
      // none here, or not readable: look further up
    }
    if (path.dirname(dir) === dir) return 'of unknown version';
  }
}
