import type { Plugin } from 'vite';

const ADMIN_FEATURE = /\/src\/features\/admin\//;

/**
 * Finds the chunks only the admin area uses: those the app's entry cannot reach without an
 * admin page's dynamic import (shared chunks such as a table or a switch count when only admin
 * pages import them). The service worker leaves them out of its precache, so people who are not
 * administrators never download them; it caches them when an administrator's page loads them.
 */
export function adminChunks(): { plugin: Plugin; isAdminOnly: (file: string) => boolean } {
  const adminOnly = new Set<string>();
  const plugin: Plugin = {
    name: 'home-guard-admin-chunks',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((output) => output.type === 'chunk');
      const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
      const reached = new Set<string>();
      const visit = (file: string) => {
        if (reached.has(file)) return;
        reached.add(file);
        const chunk = byFile.get(file);
        if (!chunk) return;
        for (const imported of chunk.imports) visit(imported);
        for (const imported of chunk.dynamicImports) {
          const target = byFile.get(imported);
          if (!target?.facadeModuleId || !ADMIN_FEATURE.test(target.facadeModuleId)) visit(imported);
        }
      };
      for (const chunk of chunks) if (chunk.isEntry) visit(chunk.fileName);
      adminOnly.clear();
      for (const chunk of chunks) if (!reached.has(chunk.fileName)) adminOnly.add(chunk.fileName);
    },
  };
  return { plugin, isAdminOnly: (file) => adminOnly.has(file) };
}
