import { GitSyncLayoutError } from './gitsync.errors';
import type { ImportedPage } from './imported-layout';
import { readGitSyncLayout } from './read-git-sync-layout';
import { memorySourceTree } from './source-tree';

/** "path (kind) title" lines, indented by depth: easy to read in a failing diff. */
function outline(pages: ImportedPage[], depth = 0): string[] {
  return pages.flatMap((p) => [
    `${'  '.repeat(depth)}${p.kind === 'link' ? `link ${p.href}` : p.path}${p.kind === 'group' ? ' (group)' : ''} ${p.title}`,
    ...outline(p.children, depth + 1),
  ]);
}

describe('readGitSyncLayout with SUMMARY.md', () => {
  it('takes titles from link text and slugs from file names, paths through groups', async () => {
    const layout = await readGitSyncLayout(
      memorySourceTree({
        'README.md': '# Welcome\n',
        'SUMMARY.md': [
          '# Table of contents',
          '',
          '* [👋 Welcome](README.md)',
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
        ].join('\n'),
        'getting-started/install.md': '# A different heading\n',
        'getting-started/configure/README.md': '# Configure\n',
        'getting-started/configure/advanced.md': '# Advanced\n',
        'reference.md': '# Reference\n',
      }),
    );
    expect(outline(layout.pages)).toEqual([
      'welcome 👋 Welcome',
      'getting-started (group) 🚀 Getting started',
      '  getting-started/install Install it',
      '  getting-started/configure Configure',
      '    getting-started/configure/advanced Advanced',
      'reference Reference',
      'link https://status.example.com Status',
    ]);
    const install = layout.pages[1].children[0];
    expect(install).toEqual({
      kind: 'sheet',
      title: 'Install it',
      slug: 'install',
      path: 'getting-started/install',
      sourcePath: 'getting-started/install.md',
      linkTitle: 'Install',
      children: [],
    });
    expect(layout.pages[3]).toEqual({ kind: 'link', title: 'Status', slug: '', path: '', href: 'https://status.example.com', children: [] });
    expect(layout).toMatchObject({ docsRoot: '', readmePath: 'README.md', summaryPath: 'SUMMARY.md', redirects: {}, warnings: [] });
  });

  it('skips a link to a missing file with a warning and keeps its children', async () => {
    const layout = await readGitSyncLayout(
      memorySourceTree({
        'README.md': '# Home\n',
        'SUMMARY.md': '* [Home](README.md)\n* [Gone](gone/README.md)\n  * [Kept](gone/kept.md)\n* [Next](next.md)\n',
        'gone/kept.md': '',
        'next.md': '',
      }),
    );
    expect(outline(layout.pages)).toEqual(['home Home', 'kept Kept', 'next Next']);
    expect(layout.warnings).toEqual(['SUMMARY.md links to missing file gone/README.md (line 2)']);
  });

  it('imports a file listed twice once', async () => {
    const layout = await readGitSyncLayout(
      memorySourceTree({
        'README.md': '',
        'SUMMARY.md': '* [Home](README.md)\n* [A](a.md)\n* [A again](./a.md#part)\n',
        'a.md': '',
      }),
    );
    expect(outline(layout.pages)).toEqual(['home Home', 'a A']);
    expect(layout.warnings).toEqual(['SUMMARY.md lists a.md more than once (line 3); only the first entry is imported']);
  });

  it('puts the README first when SUMMARY.md does not list it, titled by its heading', async () => {
    const layout = await readGitSyncLayout(
      memorySourceTree({
        'README.md': '---\ndescription: Hi\n---\n\n# Start here\n',
        'SUMMARY.md': '* [A](a.md)\n',
        'a.md': '',
      }),
    );
    expect(outline(layout.pages)).toEqual(['start-here Start here', 'a A']);
    expect(layout.pages[0].sourcePath).toBe('README.md');
  });

  it('moves a README listed further down to the top', async () => {
    const layout = await readGitSyncLayout(
      memorySourceTree({ 'README.md': '', 'SUMMARY.md': '* [A](a.md)\n* [Intro](README.md)\n', 'a.md': '' }),
    );
    expect(outline(layout.pages)).toEqual(['intro Intro', 'a A']);
    expect(layout.warnings).toEqual(["README.md is the space's first page; moved to the top of the table of contents"]);
  });

  it('keeps a README listed first inside the first group where it is', async () => {
    const layout = await readGitSyncLayout(
      memorySourceTree({ 'README.md': '', 'SUMMARY.md': '## Start\n\n* [Intro](README.md)\n* [A](a.md)\n', 'a.md': '' }),
    );
    expect(outline(layout.pages)).toEqual(['start (group) Start', '  start/intro Intro', '  start/a A']);
  });

  it('falls back to front matter title, then heading, for empty link text', async () => {
    const layout = await readGitSyncLayout(
      memorySourceTree({
        'README.md': '',
        'SUMMARY.md': '* [Home](README.md)\n* [](a.md)\n* [](b.md)\n* [](c-d.md)\n',
        'a.md': '---\ntitle: From front matter\n---\n# From heading\n',
        'b.md': '```\n# not a heading\n```\n\nFrom setext\n===\n',
        'c-d.md': 'no title at all',
      }),
    );
    expect(outline(layout.pages)).toEqual(['home Home', 'a From front matter', 'b From setext', 'c-d C d']);
  });

  it('makes sibling slugs unique and leaves cousins alone', async () => {
    const layout = await readGitSyncLayout(
      memorySourceTree({
        'README.md': '',
        'SUMMARY.md': '* [Home](README.md)\n* [Setup](a/setup.md)\n* [Setup too](b/setup.md)\n* [B](b/README.md)\n  * [Setup](b/x/setup.md)\n',
        'a/setup.md': '',
        'b/setup.md': '',
        'b/README.md': '',
        'b/x/setup.md': '',
      }),
    );
    expect(outline(layout.pages)).toEqual(['home Home', 'setup Setup', 'setup-1 Setup too', 'b B', '  b/setup Setup']);
  });

  it('turns a bullet without a link into an empty page holding its children', async () => {
    const layout = await readGitSyncLayout(
      memorySourceTree({ 'README.md': '', 'SUMMARY.md': '* [Home](README.md)\n* Old stuff\n  * [Page](old/page.md)\n', 'old/page.md': '' }),
    );
    expect(outline(layout.pages)).toEqual(['home Home', 'old-stuff Old stuff', '  old-stuff/page Page']);
    expect(layout.pages[1].sourcePath).toBeUndefined();
    expect(layout.warnings).toEqual(['SUMMARY.md line 2: "Old stuff" has no link; imported as an empty page']);
  });

  it('resolves a folder link to its README and reports a non-Markdown target', async () => {
    const layout = await readGitSyncLayout(
      memorySourceTree({
        'README.md': '',
        'SUMMARY.md': '* [Home](README.md)\n* [Guide](guide/)\n* [PDF](files/manual.pdf)\n',
        'guide/README.md': '',
        'files/manual.pdf': new Uint8Array([37, 80, 68, 70]),
      }),
    );
    expect(outline(layout.pages)).toEqual(['home Home', 'guide Guide']);
    expect(layout.warnings).toEqual(['SUMMARY.md links to files/manual.pdf, which is not a Markdown page (line 3); skipped']);
  });
});

describe('readGitSyncLayout configuration', () => {
  it('honours .gitbook.yaml root, structure and redirects', async () => {
    const layout = await readGitSyncLayout(
      memorySourceTree({
        '.gitbook.yaml': [
          'root: ./docs/',
          'structure:',
          '  readme: ./intro.md',
          '  summary: toc/SUMMARY.md',
          'redirects:',
          '  old/intro: intro.md',
          '  /previous/page/: guide/page.md#top',
          '  gone: missing.md',
          '  gone: guide/page.md',
        ].join('\n'),
        'README.md': '# Repository readme, not the docs',
        'docs/intro.md': '',
        'docs/toc/SUMMARY.md': '* [Intro](../intro.md)\n* [Page](../guide/page.md)\n',
        'docs/guide/page.md': '',
      }),
    );
    expect(layout).toMatchObject({ docsRoot: 'docs/', readmePath: 'docs/intro.md', summaryPath: 'docs/toc/SUMMARY.md' });
    expect(outline(layout.pages)).toEqual(['intro Intro', 'page Page']);
    expect(layout.redirects).toEqual({ 'old/intro': 'intro', 'previous/page': 'page', gone: 'page' });
  });

  it('reads summary links relative to the docs root when they do not resolve next to SUMMARY.md', async () => {
    const layout = await readGitSyncLayout(
      memorySourceTree({
        '.gitbook.yaml': 'structure:\n  summary: meta/SUMMARY.md\n',
        'README.md': '',
        'meta/SUMMARY.md': '* [Home](README.md)\n* [A](a.md)\n',
        'a.md': '',
      }),
    );
    expect(outline(layout.pages)).toEqual(['home Home', 'a A']);
    expect(layout.warnings).toEqual([]);
  });

  it('drops redirects whose target is not a page, with a warning', async () => {
    const layout = await readGitSyncLayout(
      memorySourceTree({
        '.gitbook.yaml': 'redirects:\n  a: nowhere.md\n  b: unlisted.md\n  c: 42\n',
        'README.md': '',
        'SUMMARY.md': '* [Home](README.md)\n',
        'unlisted.md': '',
      }),
    );
    expect(layout.redirects).toEqual({});
    expect(layout.warnings).toEqual([
      '.gitbook.yaml: redirect c has no usable target; ignored',
      '.gitbook.yaml: 2 redirects point to files that are not imported pages (a -> nowhere.md, b -> unlisted.md); ignored',
    ]);
  });

  it('reads the root from a legacy book.json when there is no .gitbook.yaml', async () => {
    const layout = await readGitSyncLayout(
      memorySourceTree({
        'book.json': '{ "language": "tw", "root": "./tw" }',
        'README.md': '# Repository readme',
        'tw/README.md': '# 簡介',
        'tw/SUMMARY.md': '* [簡介](README.md)\n* [前言](preface/README.md)\n',
        'tw/preface/README.md': '',
      }),
    );
    expect(layout).toMatchObject({ docsRoot: 'tw/', readmePath: 'tw/README.md', summaryPath: 'tw/SUMMARY.md' });
    expect(outline(layout.pages)).toEqual(['簡介 簡介', 'preface 前言']);
  });

  it('prefers .gitbook.yaml over book.json', async () => {
    const layout = await readGitSyncLayout(
      memorySourceTree({ '.gitbook.yaml': 'root: ./', 'book.json': '{"root": "./old"}', 'README.md': '', 'old/README.md': '' }),
    );
    expect(layout.docsRoot).toBe('');
  });

  it('looks for .gitbook.yaml in the project directory and resolves root against it', async () => {
    const layout = await readGitSyncLayout(
      memorySourceTree({
        '.gitbook.yaml': 'root: ./elsewhere/',
        'packages/api/.gitbook.yaml': 'root: ./docs/',
        'packages/api/docs/README.md': '# API',
      }),
      { projectDirectory: 'packages/api' },
    );
    expect(layout).toMatchObject({ docsRoot: 'packages/api/docs/', readmePath: 'packages/api/docs/README.md' });
    expect(outline(layout.pages)).toEqual(['api API']);
  });

  it('accepts a README whose name differs only in case', async () => {
    const layout = await readGitSyncLayout(memorySourceTree({ 'readme.md': '# Hi' }));
    expect(layout.readmePath).toBe('readme.md');
  });

  it('refuses a repository without its README', async () => {
    const error = await readGitSyncLayout(memorySourceTree({ 'SUMMARY.md': '* [A](a.md)', 'a.md': '' })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GitSyncLayoutError);
    expect(error).toMatchObject({ code: 'no_readme', path: 'README.md' });
  });

  it.each([
    ['unparseable YAML', 'root: [unclosed'],
    ['a root outside the repository', 'root: ../../'],
    ['a mistyped structure', 'structure: 12'],
  ])('refuses %s in .gitbook.yaml', async (_name, yaml) => {
    const error = await readGitSyncLayout(memorySourceTree({ '.gitbook.yaml': yaml, 'README.md': '' })).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'invalid_config' });
  });

  it('treats an empty .gitbook.yaml as defaults', async () => {
    const layout = await readGitSyncLayout(memorySourceTree({ '.gitbook.yaml': '', 'README.md': '' }));
    expect(layout.readmePath).toBe('README.md');
  });
});

describe('readGitSyncLayout without SUMMARY.md', () => {
  it('builds the tree from folders: README is the folder page, natural order, titles from files', async () => {
    const layout = await readGitSyncLayout(
      memorySourceTree({
        'README.md': '# Home',
        '10-faq.md': '# FAQ',
        '2-setup/README.md': '---\ntitle: Setting up\n---\n# ignored',
        '2-setup/b-linux.md': '# Linux',
        '2-setup/a-macos.md': 'no heading',
        'guides/deep/page.md': '# Deep page',
        '.gitbook/includes/snippet.md': '# Not a page',
        '.github/PULL_REQUEST_TEMPLATE.md': '# Not a page',
        'images/logo.png': new Uint8Array([1]),
      }),
    );
    expect(outline(layout.pages)).toEqual([
      'home Home',
      '2-setup Setting up',
      '  2-setup/a-macos A macos',
      '  2-setup/b-linux Linux',
      '10-faq FAQ',
      'guides Guides',
      '  guides/deep Deep',
      '    guides/deep/page Deep page',
    ]);
    expect(layout.pages[3].sourcePath).toBeUndefined();
    expect(layout.summaryPath).toBeUndefined();
  });

  it('warns when a configured SUMMARY.md is missing', async () => {
    const layout = await readGitSyncLayout(memorySourceTree({ '.gitbook.yaml': 'structure:\n  summary: toc.md', 'README.md': '' }));
    expect(layout.warnings).toEqual(['toc.md does not exist; the table of contents comes from the folders']);
  });

  it('titles a README without any heading "Introduction"', async () => {
    const layout = await readGitSyncLayout(memorySourceTree({ 'README.md': 'Just text.' }));
    expect(outline(layout.pages)).toEqual(['introduction Introduction']);
  });
});

describe('readGitSyncLayout: SUMMARY links that differ from the file name only in case or Unicode form', () => {
  it('falls back to a case-insensitive, NFC-normalised match, with a warning', async () => {
    const layout = await readGitSyncLayout(
      memorySourceTree({
        'readme.md': '# Home\n',
        'Guide/Intro.md': '# Intro\n',
        'caf\u0065\u0301.md': '# Cafe\n',
        'exact.md': '# Exact\n',
        'EXACT.md': '# Other\n',
        'SUMMARY.md': '* [Home](README.md)\n* [Intro](guide/intro.md)\n* [Café](caf\u00e9.md)\n* [Exact](EXACT.md)\n',
      }),
    );
    expect(outline(layout.pages).map((line) => line.normalize('NFC'))).toEqual(['home Home', 'intro Intro', 'caf\u00e9 Café', 'exact Exact']);
    expect(layout.pages.map((p) => p.sourcePath)).toEqual(['readme.md', 'Guide/Intro.md', 'caf\u0065\u0301.md', 'EXACT.md']);
    expect(layout.warnings.filter((w) => w.includes('only when case and Unicode form are ignored'))).toHaveLength(3);
    expect(layout.warnings.some((w) => w.includes('missing'))).toBe(false);
  });
});
