import { Upcasters } from '@quire/event-store/upcasting';

/** Upcasters for every event type whose schema changed (see EVENT_SCHEMA_VERSIONS). */
export function createUpcasters(): Upcasters {
  return new Upcasters();
}
