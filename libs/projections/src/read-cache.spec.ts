import { RecordedEvent } from '@quire/event-store/event-store.port';
import { START } from '@quire/event-store/position';
import { ALL_TAGS, idsNamedBy, ReadCache, ReadCacheFollower } from './read-cache';

/** The follower's side is covered end to end (test/e2e/read-caches.e2e-spec.ts); here, the cache's own rules. */
const follower = { register: () => undefined, serving: () => true } as unknown as ReadCacheFollower;
const cache = (max = 100) => new ReadCache<{ v: number }>({ name: 'test', max, readModels: [] }, follower);

describe('ReadCache', () => {
  it('loads once, then answers from memory until a tag of the entry is evicted', async () => {
    const c = cache();
    let loads = 0;
    const load = async () => ({ value: { v: ++loads }, tags: ['space-a', 'user-1'] });
    expect(await c.get('k', load)).toEqual({ v: 1 });
    expect(await c.get('k', load)).toEqual({ v: 1 });
    c.evict(['user-2']);
    expect(await c.get('k', load)).toEqual({ v: 1 });
    expect(c.cached('k')).toEqual({ v: 1 });
    c.evict(['user-1']);
    expect(c.cached('k')).toBeUndefined();
    expect(await c.get('k', load)).toEqual({ v: 2 });
    c.evict(ALL_TAGS);
    expect(await c.get('k', load)).toEqual({ v: 3 });
  });

  it('answers but does not keep a value whose load was in flight during an eviction (it may predate the event)', async () => {
    const c = cache();
    let release!: () => void;
    const slow = c.get('k', () => new Promise((resolve) => (release = () => resolve({ value: { v: 1 }, tags: ['x'] }))));
    c.evict(['unrelated']);
    release();
    expect(await slow).toEqual({ v: 1 });
    expect(await c.get('k', async () => ({ value: { v: 2 }, tags: ['x'] }))).toEqual({ v: 2 });
  });

  it('answers nothing from memory, and keeps nothing, while its follower is outside its lease (it may have been fenced)', async () => {
    let serving = true;
    const c = new ReadCache<{ v: number }>({ name: 'test', max: 10, readModels: [] }, { register: () => undefined, serving: () => serving } as unknown as ReadCacheFollower);
    let loads = 0;
    const load = async () => ({ value: { v: ++loads }, tags: ['x'] });
    expect(await c.get('k', load)).toEqual({ v: 1 });
    serving = false;
    expect(c.cached('k')).toBeUndefined();
    expect(await c.get('k', load)).toEqual({ v: 2 });
    expect(await c.get('other', load)).toEqual({ v: 3 });
    serving = true;
    expect(await c.get('other', load)).toEqual({ v: 4 });
    expect(await c.get('other', load)).toEqual({ v: 4 });
  });

  it('keeps no miss: undefined is answered and loaded again next time', async () => {
    const c = cache();
    let loads = 0;
    const load = async () => (++loads, undefined);
    expect(await c.get('k', load)).toBeUndefined();
    expect(await c.get('k', load)).toBeUndefined();
    expect(loads).toBe(2);
  });

  it('is bounded: the least recently used entry goes, and its tags no longer point at it', async () => {
    const c = cache(2);
    for (const k of ['a', 'b', 'c']) await c.get(k, async () => ({ value: { v: 0 }, tags: [`t-${k}`] }));
    expect(c.size).toBe(2);
    c.evict(['t-a']);
    expect(c.size).toBe(2);
    c.evict(['t-b']);
    expect(c.size).toBe(1);
  });
});

describe('idsNamedBy', () => {
  const event = (streamId: string, data: unknown) => ({ streamId, data, type: 'T', position: START }) as unknown as RecordedEvent;

  it("names the stream's aggregate id and the data's *Id fields", () => {
    expect(idsNamedBy(event('org-o1', { organizationId: 'o1', userId: 'u1', role: 'read' }))).toEqual(['o1', 'o1', 'u1']);
    expect(idsNamedBy(event('change-request-c1', { spaceId: 's1' }))).toEqual(['request-c1', 'c1', 's1']);
  });
});
