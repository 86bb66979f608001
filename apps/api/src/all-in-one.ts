import { loadConfig } from '@quire/platform/config/config';
import { WorkerModule } from '../../worker/src/worker.module';
import { runProcess } from '@quire/platform/process/run-process';
import { startApi } from './bootstrap';

/** `npm start`: API, worker and projector in one process; embedded PGlite unless DATABASE_URL is set. */
void runProcess('all-in-one', async () => {
  const config = loadConfig();
  return startApi(config, { runProjections: true, redis: true, extraModules: () => [WorkerModule] });
});
