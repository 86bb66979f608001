import { Provider } from '@nestjs/common';
import type { Db } from '@quire/platform/db/db';
import type { QuireConfig } from '@quire/platform/config/config';
import type { Logger } from '@quire/platform/logging/logger';
import { DB, LOGGER, QUIRE_CONFIG } from '@quire/infrastructure/tokens';
import { AskPipeline, SearchQueries } from '@quire/search';

/** Search queries over the search read model, and the ask pipeline (with the configured model, if any). */
export const searchProviders: Provider[] = [
  { provide: SearchQueries, useFactory: (db: Db) => new SearchQueries(db), inject: [DB] },
  {
    provide: AskPipeline,
    useFactory: (queries: SearchQueries, config: QuireConfig, logger: Logger) =>
      new AskPipeline(queries, { model: config.askModel, timeoutMs: config.askModelTimeoutMs, logger: logger.child({ component: 'ask' }) }),
    inject: [SearchQueries, QUIRE_CONFIG, LOGGER],
  },
];
