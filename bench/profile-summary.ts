// Summarises a V8 .cpuprofile (written by `npm run bench -- --profile`): self time by function
// and by package, so "where the time goes" is read from a profile, not guessed.
import { readFileSync } from 'node:fs';

type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number; children?: number[] };
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[] };

/** Where a script lives: a package name, node's internals, or a file of ours. */
function owner(url: string): string {
  if (!url) return '(native/gc/idle)';
  if (url.startsWith('node:')) return url;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  const ours = /\/(server|contract)\/(.*)$/.exec(url);
  return ours ? `${ours[1]}/${ours[2]}` : url;
}

/**
 * Self time of the busy samples (idle left out), optionally only between `from` and `to` seconds
 * into the profile (the scenario, not the start-up and seeding before it); with a timeline of the
 * busy milliseconds in each second, to find the scenario by.
 */
export function summarise(file: string, top = 25, from = 0, to = Infinity) {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfMs = new Map<number, number>();
  const busyPerSecond: number[] = [];
  let at = 0;
  profile.samples.forEach((id, i) => {
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    at += ms / 1000;
    if (byId.get(id)!.callFrame.functionName === '(idle)') return;
    busyPerSecond[Math.floor(at)] = (busyPerSecond[Math.floor(at)] ?? 0) + ms;
    if (at >= from && at < to) selfMs.set(id, (selfMs.get(id) ?? 0) + ms);
  });
  const total = [...selfMs.values()].reduce((a, b) => a + b, 0);
  const fn = new Map<string, number>();
  const pkg = new Map<string, number>();
  for (const [id, ms] of selfMs) {
    const { callFrame } = byId.get(id)!;
    const name = `${callFrame.functionName || '(anonymous)'} ${owner(callFrame.url)}:${callFrame.lineNumber}`;
    fn.set(name, (fn.get(name) ?? 0) + ms);
    pkg.set(owner(callFrame.url), (pkg.get(owner(callFrame.url)) ?? 0) + ms);
  }
  const rows = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]).slice(0, top).map(([k, ms]) => `${((ms / total) * 100).toFixed(1).padStart(5)}%  ${k}`);
  const timeline = Array.from(busyPerSecond, (ms, second) => `${second}s ${Math.round(ms ?? 0)}`).join(', ');
  return `busy ms per second: ${timeline}\n${Math.round(total)} ms busy from ${from} s to ${to} s\n\nself time by owner:\n${rows(pkg).join('\n')}\n\nself time by function:\n${rows(fn).join('\n')}`;
}

// node --import tsx bench/profile-summary.ts FILE [TOP] [FROM_SECOND] [TO_SECOND]
if (import.meta.url === `file://${process.argv[1]}`) {
  const [file, top, from, to] = process.argv.slice(2);
  console.log(summarise(file!, Number(top ?? 25), Number(from ?? 0), Number(to ?? Infinity)));
}
