import { mkdirSync, writeFileSync } from 'fs';
import { Session } from 'inspector';
import { join } from 'path';

/**
 * BENCH_CPU_PROFILE=<dir>: `profiled(label, work)` records a V8 CPU profile of this process while
 * `work` runs and writes it to <dir>/<label>-<n>.cpuprofile (the directory is created if need be;
 * open it in Chrome's DevTools, or sum its self times), so that a profile shows the measured work
 * alone, not the seeding around it. Without the variable it only runs `work`.
 */
const DIR = process.env.BENCH_CPU_PROFILE;
let session: Session | undefined;
let written = 0;

export async function profiled<T>(label: string, work: () => Promise<T>): Promise<T> {
  if (!DIR) return work();
  if (!session) {
    mkdirSync(DIR, { recursive: true });
    session = new Session();
    session.connect();
    await post('Profiler.enable');
    await post('Profiler.setSamplingInterval', { interval: 200 });
  }
  await post('Profiler.start');
  try {
    return await work();
  } finally {
    const { profile } = await post<{ profile: object }>('Profiler.stop');
    writeFileSync(join(DIR, `${label}-${++written}.cpuprofile`), JSON.stringify(profile));
  }
}

function post<R = unknown>(method: string, params?: object): Promise<R> {
  return new Promise((resolve, reject) => session!.post(method, params, (err, result) => (err ? reject(err) : resolve(result as R))));
}
