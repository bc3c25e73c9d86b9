// npm run bench: our server (SQLite, or PostgreSQL with --postgres) and the peer, oidc-provider,
// each in its own process, measured with the same autocannon settings, alternating slice by
// slice (see Slices in oidc-scenarios.ts); prints a table and writes bench/results.json. Speed lives here, never in the tests.
//   --only a,b   run just those scenarios      --profile   write our server's CPU profile
//   --id-token-alg ES256   both sides sign ID tokens with ES256 (default RS256, as every RP must accept)
//   --peer-default-rotation   the peer rotates refresh tokens only as its defaults do (not, for a
//                confidential client, before 70% of the token's lifetime); ours always rotate
//   BENCH_NODE_FLAGS='--flag …' adds Node/V8 flags to our server (to try memory settings);
//   GLIBC_TUNABLES and MALLOC_* in the environment replace its allocator settings (SERVER_ENV)
//   BENCH_SERVER_LOG=FILE keeps our server's output there (with --trace-gc: its heap over time)
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildServer, SERVER_ENV, SERVER_NODE_FLAGS } from '../scripts/build-server.mjs';
import { startServerProcess } from '../tests/support/server-process';
import { createTestDatabase } from '../tests/support/test-database';
import { bareArgon2Rate, firstPartyScenarios } from './first-party-scenarios';
import { combine, CONNECTIONS, SECONDS, type Row } from './load';
import { CODE_ROUND, CODE_ROUNDS, oidcScenarios, observedBehaviour, type Side } from './oidc-scenarios';
import { PEER_CLIENT, startPeer } from './peer';
import { rssMb, rssSampler, withCpu } from './process-stats';
import { CALLBACK, seed } from './seed';
import { startSigningFloor } from './signing-floor';

const postgres = process.argv.includes('--postgres');
if (postgres) process.env.TEST_DATABASE = 'postgres';
const onlyArg = process.argv.indexOf('--only');
const only = onlyArg > 0 ? new Set(process.argv[onlyArg + 1]!.split(',')) : undefined;
const wanted = ([name]: [string, unknown]) => !only || only.has(name);
const profileDir = process.argv.includes('--profile') ? path.join(import.meta.dirname, 'profiles') : undefined;
const algArg = process.argv.indexOf('--id-token-alg');
const idTokenAlg = algArg > 0 ? process.argv[algArg + 1] : 'RS256';
if (idTokenAlg !== 'RS256' && idTokenAlg !== 'ES256') {
  console.error(`--id-token-alg: RS256 or ES256, not ${idTokenAlg}`);
  process.exit(2);
}

// Production mode: the compiled server, as `npm start` runs it, at the default LOG_LEVEL (info;
// the test harness would otherwise lower it to warn).
const bundle = await buildServer();
const database = await createTestDatabase();
const allocatorSettings = Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined && (entry[0] === 'GLIBC_TUNABLES' || entry[0].startsWith('MALLOC_'))));
const ours = await startServerProcess(
  { ...SERVER_ENV, ...allocatorSettings, NODE_ENV: 'production', LOG_LEVEL: 'info', DATA_DIR: database.dataDir, STATIC_DIR: mkdtempSync(path.join(os.tmpdir(), 'hg-web-')), ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : {}) },
  undefined,
  [...SERVER_NODE_FLAGS, ...(process.env.BENCH_NODE_FLAGS?.split(' ').filter(Boolean) ?? []), ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [])],
  bundle,
);
const peerRotation = process.argv.includes('--peer-default-rotation') ? 'default' : 'always';
const peer = await startPeer(idTokenAlg, peerRotation);
const floor = await startSigningFloor(idTokenAlg);
const rss = rssSampler(ours.child.pid!);
const seeded = await seed(ours.url, database.dataDir, CONNECTIONS, idTokenAlg);
const idleRss = rssMb(ours.child.pid!);
rss.stage();

const firstParty = firstPartyScenarios(ours.url, seeded);
const stopAll = async () => {
  await ours.stop();
  await peer.close();
  await floor.close();
  await database.drop();
};
// A misspelt --only would otherwise run nothing and print an empty table.
const names = [...oidcScenarios, ...firstParty].map(([name]) => name);
const unknown = [...(only ?? [])].filter((name) => !names.includes(name));
if (unknown.length) {
  console.error(`--only: no scenario named ${unknown.map((name) => `"${name}"`).join(', ')}; the scenarios are: ${names.join(', ')}`);
  await stopAll();
  process.exit(2);
}

const sides: { ours: Side; peer: Side } = {
  ours: { base: ours.url, token: '/api/v1/oauth/token', userinfo: '/api/v1/oauth/userinfo', jwks: '/.well-known/jwks.json', id: seeded.service.client_id, secret: seeded.service.client_secret, redirectUri: CALLBACK, mintCodes: seeded.mintCodes },
  peer: { base: peer.issuer, token: '/token', userinfo: '/me', jwks: '/jwks', id: PEER_CLIENT.client_id, secret: PEER_CLIENT.client_secret, redirectUri: PEER_CLIENT.redirect_uri, mintCodes: peer.mintCodes },
};

// Each side is checked to do the work the run says it does before any of it is measured.
for (const [name, side] of Object.entries(sides)) {
  const who = name === 'ours' ? 'Home Guard' : 'the peer';
  const { idTokenAlg: alg, rotates } = await observedBehaviour(side);
  const shouldRotate = name === 'ours' || peerRotation === 'always';
  const problem = alg !== idTokenAlg ? `signed an ID token with ${alg}, not ${idTokenAlg}` : rotates !== shouldRotate ? `${rotates ? 'rotated' : 'did not rotate'} a refresh token` : undefined;
  if (problem) {
    console.error(`${who} ${problem}`);
    await stopAll();
    process.exit(1);
  }
}

type Measured = Row & { cpu: number; loopCpu: number; generatorCpu: number; rss?: number; sliceRps?: number[] };
const measured = async (pid: number, work: () => Promise<Row>): Promise<Measured> => {
  const { result, ...cpu } = await withCpu(pid, work);
  return { ...result, ...cpu, ...(pid === ours.child.pid ? { rss: rss.stage() } : {}) };
};
/** Slices of one side as one row: CPU shares weighted by each slice's time, the highest RSS, and each slice's rate (to see that the warm-up was long enough). */
const combined = (name: string, slices: Measured[]): Measured => {
  const seconds = slices.reduce((total, slice) => total + slice.seconds, 0);
  const share = (field: 'cpu' | 'loopCpu' | 'generatorCpu') => Math.round(slices.reduce((total, slice) => total + slice[field] * slice.seconds, 0) / seconds);
  const peak = Math.max(...slices.map((slice) => slice.rss ?? 0));
  return { ...combine(name, slices), cpu: share('cpu'), loopCpu: share('loopCpu'), generatorCpu: share('generatorCpu'), ...(peak ? { rss: peak } : {}), sliceRps: slices.map((slice) => slice.rps) };
};

// The grants are read against the bare signing rate, measured on each side of them as the hash
// rate is for sign-ins: every grant signs one ID token, on both sides.
const GRANTS = ['refresh_token grant', 'code exchange'];
const grants = oidcScenarios.filter(wanted).some(([name]) => GRANTS.includes(name));
const floorBefore = grants ? await floor.measure() : undefined;
const table: Array<{ scenario: string; ours: Measured; peer?: Measured }> = [];
for (const [name, prepare] of oidcScenarios.filter(wanted)) {
  const runs = [
    { pid: ours.child.pid!, slices: await prepare(sides.ours), rows: [] as Measured[] },
    { pid: peer.pid, slices: await prepare(sides.peer), rows: [] as Measured[] },
  ];
  // Unmeasured slices first: the figures are of code the JIT has compiled.
  for (const run of runs) {
    for (let warm = 0; warm < run.slices.count; warm++) {
      await run.slices.before?.();
      await run.slices.slice();
    }
  }
  // Alternate slice by slice, each side first in turn, so machine noise hits both.
  for (let at = 0; at < runs[0]!.slices.count; at++) {
    for (const run of at % 2 === 0 ? runs : [...runs].reverse()) {
      await run.slices.before?.();
      run.rows.push(await measured(run.pid, run.slices.slice));
    }
  }
  table.push({ scenario: name, ours: combined(name, runs[0]!.rows), peer: combined(name, runs[1]!.rows) });
}
const floorAfter = grants ? await floor.measure() : undefined;
const signingFloor = floorBefore && floorAfter ? Math.round((floorBefore.rps + floorAfter.rps) / 2) : undefined;
// The bare hash rate is measured on each side of the first-party scenarios (it moves with the
// machine's load) and the mean compared with sign-ins.
const logins = !only || only.has('password login');
const argon2Before = logins ? await bareArgon2Rate() : undefined;
for (const [, run] of firstParty.filter(wanted)) {
  const { result: rows, ...cpu } = await withCpu(ours.child.pid!, run);
  const peak = rss.stage();
  for (const row of rows) table.push({ scenario: row.scenario, ours: { ...row, ...cpu, rss: peak } });
}
const argon2After = logins ? await bareArgon2Rate() : undefined;
const argon2 = argon2Before && argon2After ? Math.round((argon2Before + argon2After) / 2) : undefined;
rss.stop();

const COLUMNS = [['req/s', 7], ['p50', 4], ['p99', 5], ['non2xx', 6], ['cpu', 4], ['loop', 4], ['gen', 4]] as const;
const cell = (row?: Measured) => {
  const values = row ? [row.rps, row.p50, row.p99, row.non2xx, row.cpu, row.loopCpu, row.generatorCpu] : COLUMNS.map(() => '-');
  return values.map((value, at) => String(value).padStart(COLUMNS[at]![1])).join(' ');
};
const header = COLUMNS.map(([name, width]) => name.padStart(width)).join(' ');
const rssCell = (row: Measured) => String(row.rss ?? '').padStart(4);
console.log(`\nHome Guard benchmark: ${postgres ? 'PostgreSQL' : 'SQLite'}, ${os.cpus().length} cores (${os.cpus()[0]?.model}), ${CONNECTIONS} connections, ${SECONDS} s each, ${idTokenAlg} ID tokens (against the peer, ${peerRotation === 'always' ? 'rotating refresh tokens as ours do' : 'rotating refresh tokens only as its defaults do'}: ${SECONDS} alternating 1-s slices after as many to warm up; code exchange in ${CODE_ROUNDS} rounds of ${CODE_ROUND} after as many to warm up)`);
console.log('req/s over the run; p50 and p99 latency in ms; cpu = the server process, loop = its event loop (main thread), gen = the load generator, in % of one core; rss = our peak MB\n');
console.log(`${'scenario'.padEnd(26)} ${header}  rss | ${header} | ratio`);
for (const { scenario: name, ours: o, peer: p } of table) console.log(`${name.padEnd(26)} ${cell(o)} ${rssCell(o)} | ${cell(p)} | ${p ? (o.rps / p.rps).toFixed(2) : '-'}`);
const login = table.find((row) => row.scenario === 'password login')?.ours;
if (argon2 && login) console.log(`\nbare argon2id (m=19456, t=2, p=1) on ${os.availableParallelism()} cores: ${argon2} hashes/s (${argon2Before} before, ${argon2After} after); password login reaches ${Math.round((login.rps / argon2) * 100)}% of it`);
if (signingFloor && floorBefore && floorAfter) {
  const shares = table.filter((row) => GRANTS.includes(row.scenario)).map(({ scenario: name, ours: o, peer: p }) => `${name} ours ${Math.round((o.rps / signingFloor) * 100)}%, the peer ${Math.round((p!.rps / signingFloor) * 100)}%`);
  console.log(`bare ${idTokenAlg} signing server (node:http, one ID token a request, nothing stored) on ${os.availableParallelism()} cores: ${signingFloor} req/s (${floorBefore.rps} before, ${floorAfter.rps} after; its cpu ${floorBefore.cpu}%, ${floorAfter.cpu}%); of it: ${shares.join('; ')}`);
}
console.log(`server RSS: ${idleRss} MB idle, ${rss.peak()} MB peak`);
const withoutLatencies = ({ latencies: _, ...rest }: Measured) => rest;
const rows = table.map((row) => ({ scenario: row.scenario, ours: withoutLatencies(row.ours), ...(row.peer ? { peer: withoutLatencies(row.peer) } : {}) }));
writeFileSync(path.join(import.meta.dirname, 'results.json'), `${JSON.stringify({ date: new Date().toISOString(), database: postgres ? 'postgres' : 'sqlite', cores: os.cpus().length, cpu: os.cpus()[0]?.model, connections: CONNECTIONS, seconds: SECONDS, idTokenAlg, peerRotation, rss: { idle: idleRss, peak: rss.peak() }, argon2HashesPerSecond: { before: argon2Before, after: argon2After, mean: argon2 }, signingFloorPerSecond: { before: floorBefore?.rps, after: floorAfter?.rps, mean: signingFloor }, table: rows }, null, 2)}\n`);

if (process.env.BENCH_SERVER_LOG) writeFileSync(process.env.BENCH_SERVER_LOG, ours.output());
await stopAll();
