import type { RevisionPageNode } from '@quire/domain';
import { presentPage } from './content.presenter';

describe('presentPage: page options from front matter', () => {
  const ctx = { config: { appUrl: 'http://app.test', publicUrl: 'http://api.test' } as any, spaceId: 's1', metadata: true };
  const page = (extra: Partial<RevisionPageNode>): RevisionPageNode => ({ id: 'p1', kind: 'sheet', title: 'Page', slug: 'page', path: 'page', children: [], ...extra });

  it('merges the page layout over the defaults and shows the cover and condition', () => {
    const out = presentPage(ctx, page({ layout: { width: 'wide', title: false, coverSize: 'full' }, cover: { file: 'f1', yPos: -10 }, condition: 'visitor.claims.beta' }));
    expect(out.layout).toMatchObject({ width: 'wide', title: false, coverSize: 'full', cover: false, description: true, outline: true });
    expect(out.cover).toEqual({ ref: { kind: 'file', file: 'f1' }, yPos: -10 });
    expect(out.condition).toBe('visitor.claims.beta');
  });

  it('uses a URL reference for an external cover and the default layout otherwise', () => {
    const out = presentPage(ctx, page({ cover: { url: 'https://cdn.test/c.png', yPos: 0 } }));
    expect(out.cover).toEqual({ ref: { kind: 'url', url: 'https://cdn.test/c.png' }, yPos: 0 });
    expect(out.layout).toMatchObject({ width: 'default', title: true });
    expect(out.condition).toBeUndefined();
  });
});
