import { followLink } from './git-source-tree';

describe('followLink', () => {
  const blobs = new Map([
    ['docs/intro.md', 'oid-intro'],
    ['assets/logo.png', 'oid-logo'],
  ]);

  it('resolves a link relative to its folder, through links to links', () => {
    const targets = new Map([
      ['README.md', 'docs/intro.md'],
      ['docs/guide/logo.png', '../../assets/logo.png'],
      ['start.md', 'README.md'],
      ['docs/./odd.md', './intro.md'],
    ]);
    expect(followLink('README.md', targets, blobs)).toBe('oid-intro');
    expect(followLink('docs/guide/logo.png', targets, blobs)).toBe('oid-logo');
    expect(followLink('start.md', targets, blobs)).toBe('oid-intro');
  });

  it('leaves out links that leave the repository, are absolute, name a folder or nothing, or loop', () => {
    const targets = new Map([
      ['up.md', '../outside.md'],
      ['deep/up.md', '../../x.md'],
      ['abs.md', '/etc/passwd'],
      ['folder.md', 'docs'],
      ['self.md', '.'],
      ['gone.md', 'missing.md'],
      ['a.md', 'b.md'],
      ['b.md', 'a.md'],
      ['loop.md', 'loop.md'],
    ]);
    for (const path of targets.keys()) expect([path, followLink(path, targets, blobs)]).toEqual([path, undefined]);
  });
});
