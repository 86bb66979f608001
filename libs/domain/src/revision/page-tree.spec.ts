import { assignPageIds, PageWithoutId, walkPages } from './page-tree';

const sheet = (path: string, file: string, children: PageWithoutId[] = []): PageWithoutId => ({
  kind: 'sheet',
  title: path,
  slug: path.split('/').pop()!,
  path,
  file,
  children,
});

describe('assignPageIds', () => {
  let n = 0;
  const newId = () => `new${++n}`;

  it('given a first import, every page gets a fresh id', () => {
    const tree = assignPageIds([sheet('intro', 'README.md', [sheet('intro/a', 'a.md')])], [], newId);
    expect([...walkPages(tree)].map(({ page }) => page.id)).toEqual(['new1', 'new2']);
  });

  it('given a re-import, pages at the same path keep their ids, moved files keep theirs, new pages get new ones', () => {
    const first = assignPageIds([sheet('intro', 'README.md'), sheet('guide', 'guide.md'), sheet('old-name', 'renamed.md')], [], newId);
    const ids = Object.fromEntries([...walkPages(first)].map(({ page }) => [page.path, page.id]));
    const second = assignPageIds([sheet('intro', 'README.md'), sheet('guide', 'guide.md'), sheet('new-name', 'renamed.md'), sheet('extra', 'extra.md')], first, newId);
    const after = Object.fromEntries([...walkPages(second)].map(({ page }) => [page.path, page.id]));
    expect(after.intro).toBe(ids.intro);
    expect(after.guide).toBe(ids.guide);
    expect(after['new-name']).toBe(ids['old-name']);
    expect(Object.values(ids)).not.toContain(after.extra);
  });

  it('never gives one id to two pages', () => {
    const first = assignPageIds([sheet('a', 'a.md')], [], newId);
    const second = assignPageIds([sheet('a', 'b.md'), sheet('c', 'a.md')], first, newId);
    const idsOf = [...walkPages(second)].map(({ page }) => page.id);
    expect(new Set(idsOf).size).toBe(2);
  });
});
