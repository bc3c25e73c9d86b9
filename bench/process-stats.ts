import { readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100;

/** Resident memory of a process in MB. */
export function rssMb(pid: number): number {
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024);
}

/** CPU seconds used so far (user + system) by a process (all its threads) or one of its threads. */
function cpuSeconds(pid: number, thread?: number): number {
  const file = thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`;
  // Fields after the command name, which sits in parentheses and may contain spaces.
  const fields = readFileSync(file, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/**
 * Measures the CPU a server process uses while `work` runs, the part of it its event loop (the
 * main thread) used, and the load generator's own (this process), in percent of one core: a loop
 * near 100% means the server's JavaScript is the limit, a generator near 100% that the figure is
 * the generator's.
 */
export async function withCpu<T>(pid: number, work: () => Promise<T>): Promise<{ result: T; cpu: number; loopCpu: number; generatorCpu: number }> {
  const [cpuBefore, loopBefore, ownBefore, startedAt] = [cpuSeconds(pid), cpuSeconds(pid, pid), cpuSeconds(process.pid), performance.now()];
  const result = await work();
  const seconds = (performance.now() - startedAt) / 1000;
  const percent = (used: number) => Math.round((used / seconds) * 100);
  return { result, cpu: percent(cpuSeconds(pid) - cpuBefore), loopCpu: percent(cpuSeconds(pid, pid) - loopBefore), generatorCpu: percent(cpuSeconds(process.pid) - ownBefore) };
}

/** Samples a process's RSS every 100 ms: the peak over the whole run, and since the last `stage()`. */
export function rssSampler(pid: number) {
  let peak = rssMb(pid);
  let stagePeak = peak;
  const timer = setInterval(() => {
    const now = rssMb(pid);
    peak = Math.max(peak, now);
    stagePeak = Math.max(stagePeak, now);
  }, 100);
  return {
    peak: () => peak,
    stage: () => {
      const value = stagePeak;
      stagePeak = rssMb(pid);
      return value;
    },
    stop: () => clearInterval(timer),
  };
}
