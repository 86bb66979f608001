import { eventStoreContract } from '../contract/event-store.contract';
import { KurrentDbEventStore } from './kurrentdb-event-store';

/**
 * The shared contract against a real KurrentDB, when one is configured, e.g.
 *   docker run -p 2113:2113 docker.kurrent.io/kurrent-latest/kurrentdb:latest --insecure
 *   KURRENTDB_TEST_URL='kurrentdb://localhost:2113?tls=false' npx jest kurrentdb
 * Every test writes to fresh streams, so a shared server needs no cleanup.
 */
const url = process.env.KURRENTDB_TEST_URL;

if (url) {
  eventStoreContract('KurrentDB', async () => {
    const store = await KurrentDbEventStore.connect(url);
    return { store, dispose: async () => undefined };
  });
} else {
  // Jest reports a skipped suite only as "1 skipped"; say plainly, once per run, what did not run.
  process.stderr.write(
    '\nKurrentDB contract tests SKIPPED: KURRENTDB_TEST_URL is not set. To run them, start KurrentDB ' +
      '(docker compose --profile kurrentdb up -d kurrentdb) and run with KURRENTDB_TEST_URL=kurrentdb://localhost:2113?tls=false\n\n',
  );
  describe.skip('KurrentDB contract tests skipped: set KURRENTDB_TEST_URL=kurrentdb://host:2113?tls=false to run them', () => {
    it('passes the EventStore contract', () => undefined);
  });
}
