import { readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'fs';
import lockfile from 'proper-lockfile';

/** Another live process holds the embedded database directory. */
export class DataDirInUseError extends Error {
  constructor(readonly dir: string, readonly pid: number | undefined) {
    super(`${dir} is in use by another Quire process${pid ? ` (pid ${pid})` : ''}; stop it or set DATABASE_URL`);
    this.name = 'DataDirInUseError';
  }
}

const held = new Set<string>();

/**
 * PGlite is one process's database: a second process opening the same directory (the CLI beside
 * a running server) corrupts it. The lock is a directory beside it (`<dir>.lock`, atomic mkdir)
 * kept fresh while held, so one left by a killed process goes stale; the holder's pid is written
 * in it so a refusal can name it, and a lock whose pid is gone is taken over at once.
 */
export async function lockPgliteDir(dir: string, onCompromised: (err: Error) => void = () => undefined): Promise<() => Promise<void>> {
  const lockPath = `${dir}.lock`;
  // Inside the lock directory, so it exists exactly as long as the lock does.
  const pidPath = `${lockPath}/pid`;
  // PGlite's work runs on the event loop (a first start spends many seconds in initdb), so the
  // freshness window is wide; a holder that is gone is recognised by its pid well before that.
  const take = () => lockfile.lock(dir, { lockfilePath: lockPath, realpath: false, stale: 120_000, update: 10_000, onCompromised });
  let release: () => Promise<void>;
  try {
    release = await take();
  } catch (err: any) {
    // ENOTEMPTY: proper-lockfile found the lock stale but cannot remove it (our pid file is in it).
    if (err?.code !== 'ELOCKED' && err?.code !== 'ENOTEMPTY') throw err;
    const pid = readPid(pidPath);
    // A pid that has exited, or our own pid from a previous life (pid 1 in a restarted container).
    const dead = pid !== undefined && !held.has(dir) && (pid === process.pid || !alive(pid));
    if (!dead) throw new DataDirInUseError(dir, pid);
    rmSync(lockPath, { recursive: true, force: true });
    try {
      release = await take();
    } catch (again: any) {
      if (again?.code === 'ELOCKED') throw new DataDirInUseError(dir, readPid(pidPath));
      throw again;
    }
  }
  held.add(dir);
  // proper-lockfile checks that the directory's mtime is the one it last set: keep it.
  const { mtime } = statSync(lockPath);
  writeFileSync(pidPath, `${process.pid}\n`);
  utimesSync(lockPath, mtime, mtime);
  // proper-lockfile's own exit hook cannot remove a lock directory that holds a file.
  const onExit = () => rmSync(lockPath, { recursive: true, force: true });
  process.once('exit', onExit);
  return async () => {
    process.removeListener('exit', onExit);
    held.delete(dir);
    rmSync(pidPath, { force: true });
    await release().catch(() => rmSync(lockPath, { recursive: true, force: true }));
  };
}

function readPid(path: string): number | undefined {
  try {
    const pid = Number(readFileSync(path, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err: any) {
    return err?.code === 'EPERM';
  }
}
