import { LruCache } from './lru-cache';

describe('LruCache', () => {
  it('evicts the least recently used entries beyond its size', () => {
    const cache = new LruCache<string>(10, (value) => value.length);
    cache.set('a', 'xxxx');
    cache.set('b', 'xxxx');
    expect(cache.get('a')).toBe('xxxx'); // a is now the most recent
    cache.set('c', 'xxxx');
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe('xxxx');
    expect(cache.get('c')).toBe('xxxx');
    expect(cache.size).toBe(8);
  });

  it('replaces a key without counting it twice', () => {
    const cache = new LruCache<string>(10, (value) => value.length);
    cache.set('a', 'xxxxxx');
    cache.set('a', 'yy');
    expect(cache.size).toBe(2);
    expect(cache.get('a')).toBe('yy');
  });

  it('does not keep a value larger than the whole cache', () => {
    const cache = new LruCache<string>(4, (value) => value.length);
    cache.set('small', 'xx');
    cache.set('huge', 'xxxxxxxx');
    expect(cache.get('huge')).toBeUndefined();
    expect(cache.get('small')).toBe('xx');
  });

  it('loads a missing value once for every caller that asks while it loads, then serves it from the cache', async () => {
    const cache = new LruCache<string>(10);
    let loads = 0;
    const load = async () => `v${++loads}`;
    expect(await Promise.all([cache.getOrLoad('k', load), cache.getOrLoad('k', load)])).toEqual(['v1', 'v1']);
    expect(await cache.getOrLoad('k', load)).toBe('v1');
    expect(loads).toBe(1);
  });

  it('keeps no failed load: the next caller loads again', async () => {
    const cache = new LruCache<string>(10);
    await expect(cache.getOrLoad('k', async () => Promise.reject(new Error('disk')))).rejects.toThrow('disk');
    expect(await cache.getOrLoad('k', async () => 'v')).toBe('v');
  });
});
