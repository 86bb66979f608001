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
});
