import type { ImportedPage } from './imported-layout';
import { readGitSyncLayout } from './read-git-sync-layout';
import { memorySourceTree } from './source-tree';
import { writeGitSyncLayout, type PageToWrite } from './write-git-sync-layout';

let nextId = 0;
function page(kind: PageToWrite['kind'], title: string, slug: string, children: PageToWrite[] = [], extra: Partial<PageToWrite> = {}): PageToWrite {
  return { id: `p${nextId++}`, kind, title, slug, children, ...extra };
}

/** What a reader must get back: kind, title, slug, path, linkTitle, href. */
function shape(pages: Array<PageToWrite | ImportedPage>, parentPath = ''): unknown[] {
  return pages.map((p) => {
    const path = p.kind === 'link' ? '' : parentPath ? `${parentPath}/${p.slug}` : p.slug;
    return {
      kind: p.kind,
      title: p.title,
      slug: p.kind === 'link' ? '' : p.slug,
      path,
      ...(p.linkTitle ? { linkTitle: p.linkTitle } : {}),
      ...(p.href ? { href: p.href } : {}),
      children: shape(p.children, path),
    };
  });
}

describe('writeGitSyncLayout', () => {
  it('writes README.md, SUMMARY.md with groups, <slug>.md and <slug>/README.md', () => {
    const tree = [
      page('sheet', 'Welcome', 'welcome', [], { markdown: 'Hello.\n' }),
      page('group', '🚀 Getting started', 'getting-started', [
        page('sheet', 'Install it', 'install', [], { linkTitle: 'Install' }),
        page('sheet', 'Configure', 'configure', [page('sheet', 'Advanced', 'advanced')]),
      ]),
      page('sheet', 'Reference', 'reference', [], { markdown: '---\ndescription: All of it\n---\n\n# Reference\n\nBody.\n' }),
      page('link', 'Status', '', [], { href: 'https://status.example.com' }),
    ];
    const { files, pathById } = writeGitSyncLayout(tree);
    expect(Object.keys(files).sort()).toEqual([
      'README.md',
      'SUMMARY.md',
      'getting-started/configure/README.md',
      'getting-started/configure/advanced.md',
      'getting-started/install.md',
      'reference.md',
    ]);
    expect(files['SUMMARY.md']).toBe(
      [
        '# Table of contents',
        '',
        '* [Welcome](README.md)',
        '',
        '## 🚀 Getting started',
        '',
        '* [Install it](getting-started/install.md "Install")',
        '* [Configure](getting-started/configure/README.md)',
        '  * [Advanced](getting-started/configure/advanced.md)',
        '',
        '***',
        '',
        '* [Reference](reference.md)',
        '* [Status](https://status.example.com)',
        '',
      ].join('\n'),
    );
    expect(files['README.md']).toBe('# Welcome\n\nHello.\n');
    expect(files['getting-started/configure/advanced.md']).toBe('# Advanced\n');
    expect(files['reference.md']).toBe('---\ndescription: All of it\n---\n\n# Reference\n\nBody.\n');
    expect(pathById[tree[1].children[1].id]).toBe('getting-started/configure/README.md');
  });

  it('puts the docs under a root folder with a .gitbook.yaml pointing at it', async () => {
    const { files } = writeGitSyncLayout([page('sheet', 'Home', 'home')], { docsRoot: 'docs' });
    expect(Object.keys(files).sort()).toEqual(['.gitbook.yaml', 'docs/README.md', 'docs/SUMMARY.md']);
    const layout = await readGitSyncLayout(memorySourceTree(files));
    expect(layout.docsRoot).toBe('docs/');
  });

  it('rejects a group below the root', () => {
    expect(() => writeGitSyncLayout([page('sheet', 'Home', 'home', [page('group', 'G', 'g')])])).toThrow(/root/);
  });
});

describe('writeGitSyncLayout then readGitSyncLayout', () => {
  it('gives back the same titles, slugs and paths', async () => {
    const tree = [
      page('sheet', '👋 Welcome', 'welcome', [page('sheet', 'Under the README', 'under-the-readme')]),
      page('group', '🚀 Getting started', 'getting-started', [
        page('sheet', 'Install it', 'install', [], { linkTitle: 'Install "now"' }),
        page('sheet', 'Configure', 'configure', [
          page('sheet', 'Advanced (beta) [x] *y* _z_ `c` <tag> \\ &amp; done', 'advanced'),
          page('link', 'Status', '', [], { href: 'https://status.example.com/a_(b)' }),
          page('sheet', 'A page called readme', 'readme'),
          page('sheet', 'Deeper', 'deeper', [page('sheet', 'Deepest', 'deepest', [page('sheet', 'Bottom', 'bottom')])]),
        ]),
      ]),
      page('sheet', '常見問題', '常見問題', [page('sheet', '4.3. 函數呼叫', '4.3.-han-shu-hu-jiao')]),
      page('sheet', 'Install', 'install'),
      page('group', '❓ FAQ', 'faq', [page('sheet', 'Why?', 'why'), page('sheet', 'Why not?', 'why-not', [page('sheet', 'Because', 'because')])]),
      page('group', 'Empty group', 'empty-group'),
      page('link', 'GitHub', '', [], { href: 'https://github.com/example/repo', linkTitle: 'Source' }),
    ];
    const { files } = writeGitSyncLayout(tree);
    const layout = await readGitSyncLayout(memorySourceTree(files));
    expect(layout.warnings).toEqual([]);
    expect(shape(layout.pages)).toEqual(shape(tree));
  });

  it('reads back slugs normalised to file-name form', async () => {
    const { files } = writeGitSyncLayout([page('sheet', 'Home', 'home'), page('sheet', 'Mixed', 'Mixed Case'), page('sheet', 'Dup', 'mixed-case')]);
    const layout = await readGitSyncLayout(memorySourceTree(files));
    expect(layout.pages.map((p) => p.slug)).toEqual(['home', 'mixed-case', 'mixed-case-1']);
  });
});

describe('writeGitSyncLayout with the files pages have (an edited revision)', () => {
  it('keeps a page at its file while the file names its slug; new pages, renamed slugs and README clashes get the layout', async () => {
    const tree = [
      page('sheet', 'Welcome', 'welcome', [], { file: 'README.md' }),
      page('sheet', 'Install', 'install', [page('sheet', 'Linux', 'linux', [], { file: 'guides/linux.md' }), page('sheet', 'New', 'new')], { file: 'guides/install.md' }),
      page('sheet', 'Renamed', 'renamed', [], { file: 'old-name.md' }),
      page('sheet', 'Intro', 'intro', [], { file: 'README.md' }),
    ];
    const { files, pathById } = writeGitSyncLayout(tree);
    expect(Object.values(pathById)).toEqual(['README.md', 'guides/install.md', 'guides/linux.md', 'install/new.md', 'renamed.md', 'intro.md']);
    expect(files['SUMMARY.md']).toContain('* [Install](guides/install.md)\n  * [Linux](guides/linux.md)\n  * [New](install/new.md)\n');
    // The reader gets the same tree back.
    const read = await readGitSyncLayout(memorySourceTree(files));
    expect(shape(read.pages)).toEqual(shape(tree));
  });

  it('lays a new page elsewhere when its layout path is a kept file (a page moved out of that folder)', () => {
    const tree = [page('sheet', 'Welcome', 'welcome'), page('sheet', 'Linux', 'linux', [], { file: 'guides/linux.md' }), page('sheet', 'Guides', 'guides', [page('sheet', 'Linux', 'linux')])];
    expect(Object.values(writeGitSyncLayout(tree).pathById)).toEqual(['README.md', 'guides/linux.md', 'guides/README.md', 'guides/linux-1.md']);
  });
});
