import { memorySourceTree, readGitSyncLayout } from '@quire/content/gitsync';
import { referencedAssets } from '@quire/content/markdown';
import { collectImportFiles, mayReferenceAssets } from './collect-import-files';
import { pngBytes } from './testing/png';

const decode = (bytes: Uint8Array | undefined) => new TextDecoder().decode(bytes);

describe('collectImportFiles', () => {
  const tree = memorySourceTree({
    'docs/README.md': '# Home\n\n![](.gitbook/assets/a.png)\n',
    'docs/SUMMARY.md': '* [Home](README.md)\n* [Guide](guide/README.md)\n  * [Deep](guide/deep.md)\n',
    'docs/guide/README.md': '---\ncover: ../.gitbook/assets/cover.png\n---\n\n# Guide\n\n{% file src="../.gitbook/assets/manual.pdf" %}\nThe manual\n{% endfile %}\n',
    'docs/guide/deep.md': '# Deep\n\n![again](../../docs/.gitbook/assets/a.png) ![gone](../.gitbook/assets/gone.png) ![outside](../../logo.png)\n',
    'docs/.gitbook/assets/a.png': pngBytes(4, 2),
    'docs/.gitbook/assets/cover.png': pngBytes(10, 3, 1),
    'docs/.gitbook/assets/manual.pdf': '%PDF-1.4 not really',
    'docs/.gitbook/assets/unused.png': pngBytes(1, 1),
    'logo.png': pngBytes(1, 1, 2),
    '.gitbook.yaml': 'root: ./docs/\n',
  });

  it('returns the pages and the files they reference, relative to the docs root', async () => {
    const layout = await readGitSyncLayout(tree);
    const { files, assets, warnings } = await collectImportFiles({ tree, layout });
    expect(Object.keys(files).sort()).toEqual(
      ['.gitbook/assets/a.png', '.gitbook/assets/cover.png', '.gitbook/assets/manual.pdf', 'README.md', 'guide/README.md', 'guide/deep.md'].sort(),
    );
    expect(decode(files['guide/deep.md'])).toContain('# Deep');
    expect(assets).toEqual([
      { path: '.gitbook/assets/a.png', contentType: 'image/png', size: files['.gitbook/assets/a.png'].byteLength, width: 4, height: 2 },
      { path: '.gitbook/assets/cover.png', contentType: 'image/png', size: files['.gitbook/assets/cover.png'].byteLength, width: 10, height: 3 },
      { path: '.gitbook/assets/manual.pdf', contentType: 'application/pdf', size: 19 },
    ]);
    expect(warnings.sort()).toEqual([
      'docs/guide/deep.md: ../../logo.png is outside the docs root; not imported',
      'docs/guide/deep.md: ../.gitbook/assets/gone.png does not exist in the repository',
    ]);
  });

  it('reports progress up to the number of files read', async () => {
    const layout = await readGitSyncLayout(tree);
    const seen: Array<[number, number]> = [];
    await collectImportFiles({ tree, layout, onProgress: (done, total) => seen.push([done, total]) });
    expect(seen[seen.length - 1]).toEqual([6, 6]);
  });

  it('keeps an image it cannot measure, without dimensions', async () => {
    const broken = memorySourceTree({ 'README.md': '![](x.png)\n', 'x.png': 'not a png' });
    const layout = await readGitSyncLayout(broken);
    const { assets } = await collectImportFiles({ tree: broken, layout });
    expect(assets).toEqual([{ path: 'x.png', contentType: 'image/png', size: 9 }]);
  });
});

describe('mayReferenceAssets', () => {
  it('is true for every syntax referencedAssets finds files in', () => {
    const pages = [
      '![x](a.png)',
      '![x][ref]\n\n[ref]: a.png',
      '<img src="a.png">',
      '<figure><img src="a.png" alt=""><figcaption></figcaption></figure>',
      '{% file src="a.pdf" %}\nx\n{% endfile %}',
      '---\ncover: .gitbook/assets/c.png\ncoverY: 0\n---\n\n# T\n',
      '[Download](files/doc.pdf)',
      '[Download](<files/my doc.pdf>)',
      '<picture><source srcset="a.png 2x"></picture>',
      '<a href="files/x.csv">csv</a>',
    ];
    for (const page of pages) {
      expect(referencedAssets(page).length).toBeGreaterThan(0);
      expect(mayReferenceAssets(page)).toBe(true);
    }
  });

  it('is false for a page without any of them', () => {
    expect(mayReferenceAssets('# Title\n\nText with a [link](other.md) and `code`.\n')).toBe(false);
  });

  it('is false for links to absolute URLs, which are never files of the repository', () => {
    const pages = ['See [the site](https://example.com).', 'A [file](https://example.com/a.pdf)', '[cdn](//cdn.example.com/a.pdf)', '[site]: https://example.com/a.pdf', '[mail](<mailto:a@example.com>)'];
    for (const page of pages) {
      expect(referencedAssets(page)).toEqual([]);
      expect(mayReferenceAssets(page)).toBe(false);
    }
    // ... while a relative file beside one is still seen.
    expect(mayReferenceAssets('See [the site](https://example.com) and [the sheet](files/a.csv).')).toBe(true);
  });
});

describe('collectImportFiles: includes, linked files, legacy folders and Git LFS', () => {
  it('imports include files with their assets, linked files and legacy images, and skips LFS pointers with a warning', async () => {
    const tree = memorySourceTree({
      'README.md': '# Home\n\n![](images/legacy.png)\n\n[Download](.gitbook/assets/doc.pdf)\n\n{% include "./.gitbook/includes/snippet.md" %}\n\n{% include ".gitbook/includes/gone.md" %}\n\n![](.gitbook/assets/lfs.png)\n',
      'SUMMARY.md': '* [Home](README.md)\n',
      'images/legacy.png': pngBytes(3, 2),
      '.gitbook/assets/doc.pdf': '%PDF-1.4',
      '.gitbook/includes/snippet.md': '# Snippet\n\n![](../assets/inc.png)\n\n{% include "nested.md" %}\n',
      '.gitbook/includes/nested.md': 'Nested\n',
      '.gitbook/assets/inc.png': pngBytes(2, 2),
      '.gitbook/assets/lfs.png': 'version https://git-lfs.github.com/spec/v1\noid sha256:4d7a2146\nsize 12345\n',
    });
    const layout = await readGitSyncLayout(tree);
    const { files, assets, warnings } = await collectImportFiles({ tree, layout });
    expect(Object.keys(files).sort()).toEqual(
      ['.gitbook/assets/doc.pdf', '.gitbook/assets/inc.png', '.gitbook/includes/nested.md', '.gitbook/includes/snippet.md', 'README.md', 'images/legacy.png'].sort(),
    );
    expect(assets.map((a) => [a.path, a.width])).toEqual([
      ['.gitbook/assets/doc.pdf', undefined],
      ['.gitbook/assets/inc.png', 2],
      ['images/legacy.png', 3],
    ]);
    expect(warnings).toEqual([
      'README.md: include .gitbook/includes/gone.md does not exist in the repository',
      '.gitbook/assets/lfs.png is stored in Git LFS; not imported',
    ]);
  });
});

describe('collectImportFiles: front matter', () => {
  it('warns, naming the file, when a page front matter is not valid YAML', async () => {
    const tree = memorySourceTree({
      'README.md': '---\ndescription: fine\n---\n# Home\n',
      'SUMMARY.md': '* [Home](README.md)\n* [Bad](bad.md)\n* [List](list.md)\n',
      'bad.md': '---\ndescription: foo: bar: [\n---\n# Bad\n',
      'list.md': '---\n- a\n- b\n---\n# List\n',
    });
    const layout = await readGitSyncLayout(tree);
    const { warnings } = await collectImportFiles({ tree, layout });
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/^bad\.md: front matter is not valid YAML \(.+\); its description, icon and other settings are ignored$/);
    expect(warnings[1]).toBe('list.md: front matter is not valid YAML (not a mapping); its description, icon and other settings are ignored');
  });
});
