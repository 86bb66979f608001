import { ConfigError } from '../config/config';
import { StartupError } from './startup-error';

/** docker-compose's stop_grace_period (45 s) is longer, so this, not SIGKILL, ends a stuck drain. */
const FORCED_EXIT_MS = 30_000;

/**
 * Starts a process and owns its lifecycle: a configuration or connection problem is one clear
 * line and a non-zero exit; SIGTERM/SIGINT close everything (in-flight jobs finish or return
 * to the queue) and exit 0.
 */
export async function runProcess(name: string, start: () => Promise<{ close(): Promise<void> }>): Promise<void> {
  let started: { close(): Promise<void> };
  try {
    started = await start();
  } catch (err: any) {
    const line = err instanceof ConfigError || err instanceof StartupError ? err.message : `${err?.message ?? err}`;
    process.stderr.write(`quire ${name}: cannot start: ${line}\n`);
    if (!(err instanceof ConfigError || err instanceof StartupError) && process.env.LOG_LEVEL === 'debug') console.error(err);
    process.exit(1);
  }
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`quire ${name}: ${signal} received, shutting down\n`);
    const force = setTimeout(() => {
      process.stderr.write(`quire ${name}: shutdown took longer than ${FORCED_EXIT_MS / 1000} s; exiting (active jobs return to the queue)\n`);
      process.exit(1);
    }, FORCED_EXIT_MS);
    force.unref();
    try {
      await started.close();
      process.exit(0);
    } catch (err: any) {
      process.stderr.write(`quire ${name}: shutdown failed: ${err?.message}\n`);
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}
