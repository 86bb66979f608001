import { Upcasters } from './upcasting';
import { RecordedEvent } from './event-store.port';
import { START } from './position';

const recorded = (type: string, schemaVersion: number, data: unknown): RecordedEvent => ({
  id: 'e1',
  streamId: 's',
  streamVersion: 1,
  position: START,
  type,
  schemaVersion,
  data,
  metadata: {},
  recordedAt: new Date(0),
});

describe('Upcasters', () => {
  const upcasters = new Upcasters()
    .register('SpaceCreated', 1, (d) => ({ ...d, visibility: d.public ? 'public' : 'private', public: undefined }))
    .register('SpaceCreated', 2, (d) => ({ ...d, language: d.language ?? 'en' }));

  it('given a v1 event, when read, then it is lifted through every version', () => {
    const event = upcasters.apply(recorded('SpaceCreated', 1, { title: 'A', public: true }));
    expect(event.schemaVersion).toBe(3);
    expect(event.data).toEqual({ title: 'A', visibility: 'public', public: undefined, language: 'en' });
  });

  it('leaves events already at the newest version and unknown types untouched', () => {
    const current = recorded('SpaceCreated', 3, { title: 'B' });
    expect(upcasters.apply(current)).toBe(current);
    const other = recorded('UserCreated', 1, { x: 1 });
    expect(upcasters.apply(other)).toBe(other);
  });
});
