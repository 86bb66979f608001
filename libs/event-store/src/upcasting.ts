import { RecordedEvent } from './event-store.port';

export type Upcaster = (data: any) => any;

/**
 * Old events are upcast on read, never rewritten: each upcaster lifts `type` from
 * `fromVersion` to `fromVersion + 1`; chains apply until the newest known version.
 */
export class Upcasters {
  private readonly byKey = new Map<string, Upcaster>();

  register(type: string, fromVersion: number, upcast: Upcaster): this {
    this.byKey.set(`${type}@${fromVersion}`, upcast);
    return this;
  }

  apply<T>(event: RecordedEvent<T>): RecordedEvent<T> {
    let { data, schemaVersion } = event as RecordedEvent<any>;
    let upcast = this.byKey.get(`${event.type}@${schemaVersion}`);
    if (!upcast) return event;
    while (upcast) {
      data = upcast(data);
      schemaVersion += 1;
      upcast = this.byKey.get(`${event.type}@${schemaVersion}`);
    }
    return { ...event, data, schemaVersion };
  }
}
