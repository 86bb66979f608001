import { Db } from '@quire/platform/db/db';
import { EventStore } from '@quire/event-store/event-store.port';
import { SqlEventStore } from '@quire/event-store/sql/sql-event-store';
import { Upcasters } from '@quire/event-store/upcasting';

/** PostgreSQL/PGlite by default (the read-model database); KurrentDB when EVENTSTORE_URL names one. */
export async function openEventStore(db: Db, eventStoreUrl: string | undefined, upcasters: Upcasters): Promise<EventStore> {
  if (eventStoreUrl) {
    const { KurrentDbEventStore } = await import('@quire/event-store/kurrentdb/kurrentdb-event-store');
    return KurrentDbEventStore.connect(eventStoreUrl, upcasters);
  }
  return SqlEventStore.create(db, upcasters);
}
