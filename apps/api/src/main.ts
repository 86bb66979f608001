import { loadConfig } from '@quire/platform/config/config';
import { runProcess } from '@quire/platform/process/run-process';
import { startApi } from './bootstrap';

/** The API alone (scaled out): PostgreSQL is required; projections run in the worker. */
void runProcess('api', async () => {
  const config = loadConfig();
  if (!config.databaseUrl) throw new Error('DATABASE_URL is required to run the API on its own (npm start runs everything in one process)');
  return startApi(config, { runProjections: false, redis: true });
});
