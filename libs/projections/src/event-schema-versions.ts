/**
 * The current schema version of each event type whose shape has changed since v1. Bump it
 * together with an upcaster registered in `upcasters.ts`; old events are never rewritten.
 */
export const EVENT_SCHEMA_VERSIONS: Record<string, number> = {};
