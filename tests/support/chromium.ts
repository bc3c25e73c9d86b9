/**
 * The browser of the end-to-end and browser tests: Debian's Chromium in its headless shell
 * (package chromium-headless-shell; Playwright's own choice for headless runs), not the whole
 * browser run headless. The same Blink, V8, service workers and storage, without the desktop
 * browser's layers, which took most of the end-to-end step's CPU: two spec files took 42-44 s
 * and 48-57 s of CPU in it against 52-53 s and 73-77 s in /usr/bin/chromium (2026-12-05, runs
 * alternated), and the whole suite 330 s against 591 s the day before.
 */
export const TEST_CHROMIUM = '/usr/bin/chromium-headless-shell';

export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'];
