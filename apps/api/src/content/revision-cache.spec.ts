import { RevisionCache } from './revision-cache';

describe('RevisionCache', () => {
  it('loads a key once, also for concurrent reads of it', async () => {
    const cache = new RevisionCache({ contentCacheBytes: 16 * 1024 * 1024 });
    let loads = 0;
    const load = async () => {
      loads++;
      await new Promise((r) => setTimeout(r, 5));
      return { page: 'Guide' };
    };
    const [a, b] = await Promise.all([cache.get(['page', 's', 'r1', 'id', 'p'], load, () => 10), cache.get(['page', 's', 'r1', 'id', 'p'], load, () => 10)]);
    expect(await cache.get(['page', 's', 'r1', 'id', 'p'], load, () => 10)).toEqual({ page: 'Guide' });
    expect(a).toBe(b);
    expect(loads).toBe(1);
  });

  it('keeps nothing for a load that finds nothing (a revision the read model does not hold yet)', async () => {
    const cache = new RevisionCache({ contentCacheBytes: 16 * 1024 * 1024 });
    let held: string | undefined;
    const load = async () => held;
    expect(await cache.get(['revision', 's', 'r2'], load, () => 1)).toBeUndefined();
    held = 'now there';
    expect(await cache.get(['revision', 's', 'r2'], load, () => 1)).toBe('now there');
  });

  it('drops the least recently used entries once their bytes pass the bound', async () => {
    const cache = new RevisionCache({ contentCacheBytes: 96 * 1024 * 1024 });
    let loads = 0;
    const big = async () => {
      loads++;
      return 'x';
    };
    const bytes = () => 40 * 1024 * 1024;
    await cache.get(['a'], big, bytes);
    await cache.get(['b'], big, bytes);
    await cache.get(['a'], big, bytes); // a is now the most recently used
    await cache.get(['c'], big, bytes); // 120 MiB > the bound: b goes
    expect(loads).toBe(3);
    await cache.get(['a'], big, bytes);
    expect(loads).toBe(3);
    await cache.get(['b'], big, bytes);
    expect(loads).toBe(4);
  });
});
