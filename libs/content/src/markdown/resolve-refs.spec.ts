import { markdownToDocument } from './markdown-to-document';
import { expandIncludes, rebaseLinks, refTargets, refTargetsBytes, resolveDocumentRefs, resolveRefUrl, stableMarkdown } from './resolve-refs';

const targets = refTargets(
  [
    { id: 'root', file: 'README.md' },
    { id: 'guide', file: 'guide/README.md' },
    { id: 'install', file: 'guide/install.md' },
    { id: 'odd', file: 'guide/a b (1).md' },
    { id: 'group' },
  ],
  [{ id: 'img', file: '.gitbook/assets/image (1).png' }],
);

describe('resolveRefUrl', () => {
  it.each([
    ['install.md', 'guide/install.md', { kind: 'page', page: 'install' }],
    ['./install.md#step-2', 'guide/README.md', { kind: 'anchor', anchor: 'step-2', page: 'install' }],
    ['../README.md', 'guide/install.md', { kind: 'page', page: 'root' }],
    ['../', 'guide/install.md', { kind: 'page', page: 'root' }],
    ['guide/', 'README.md', { kind: 'page', page: 'guide' }],
    ['guide', 'README.md', { kind: 'page', page: 'guide' }],
    ['/guide/install.md', 'guide/install.md', { kind: 'page', page: 'install' }],
    ['a%20b%20(1).md', 'guide/install.md', { kind: 'page', page: 'odd' }],
    ['../.gitbook/assets/image (1).png', 'guide/install.md', { kind: 'file', file: 'img' }],
    ['#top', 'guide/install.md', { kind: 'anchor', anchor: 'top' }],
    ['/pages/install#x', 'README.md', { kind: 'anchor', anchor: 'x', page: 'install' }],
    ['/files/img', 'README.md', { kind: 'file', file: 'img' }],
  ])('%s from %s', (url, from, expected) => {
    expect(resolveRefUrl(url, from, targets)).toEqual(expected);
  });

  it.each([['https://example.com/guide/install.md'], ['//cdn/x.png'], ['mailto:a@b.c'], ['missing.md'], ['../../outside.md'], ['/pages/nope'], ['']])('%s stays a URL', (url) => {
    expect(resolveRefUrl(url, 'guide/install.md', targets)).toBeUndefined();
  });
});

describe('resolveDocumentRefs', () => {
  it('copies what it changes and leaves the shared document alone; images only take files', () => {
    const { document } = markdownToDocument('[a](install.md) ![i](../.gitbook/assets/image%20(1).png) ![p](install.md)\n\n{% file src="../.gitbook/assets/image (1).png" %}\n');
    const before = JSON.stringify(document);
    const resolved = resolveDocumentRefs(document, 'guide/README.md', targets);
    expect(JSON.stringify(document)).toBe(before);
    const refs = JSON.stringify(resolved);
    expect(refs).toContain('{"kind":"page","page":"install"}');
    expect(refs).toContain('{"kind":"file","file":"img"}');
    expect(refs).toContain('{"kind":"url","url":"install.md"}'); // an image naming a page stays a URL
    expect(refs).not.toContain('"file":"../');
    expect(resolveDocumentRefs(markdownToDocument('No links.\n').document, 'README.md', targets).nodes).toHaveLength(1);
  });
});

describe('resolveDocumentRefs in tables', () => {
  const cards =
    '<table data-view="cards"><thead><tr><th></th><th data-hidden data-card-target data-type="content-ref"></th><th data-hidden data-card-cover data-type="image"></th><th data-type="files">F</th></tr></thead>' +
    '<tbody><tr><td>Install</td><td><a href="install.md#run">install.md</a></td><td><a href="../.gitbook/assets/image%20(1).png">image (1).png</a></td><td><a href="../.gitbook/assets/image (1).png">x</a><a href="https://x.y/z.pdf">z</a></td></tr>' +
    '<tr><td>Away</td><td><a href="https://example.com/">example.com</a></td><td><a href="install.md">install.md</a></td><td></td></tr></tbody></table>\n';

  it('resolves a cards table\'s targets to pages, its covers and files to file ids, and leaves the rest as URLs', () => {
    const { document } = markdownToDocument(cards);
    const before = JSON.stringify(document);
    const [table] = resolveDocumentRefs(document, 'guide/README.md', targets).nodes;

    expect(JSON.stringify(document)).toBe(before);
    expect(table.data.records).toEqual({
      r1: { orderIndex: 'a0', values: { c1: 'r1c1', c2: { kind: 'anchor', anchor: 'run', page: 'install' }, c3: { ref: { kind: 'file', file: 'img' } }, c4: ['img', 'https://x.y/z.pdf'] } },
      // A cover may only be a file: a cover naming a page stays a URL.
      r2: { orderIndex: 'a1', values: { c1: 'r2c1', c2: { kind: 'url', url: 'https://example.com/' }, c3: { ref: { kind: 'url', url: 'install.md' } }, c4: [] } },
    });
  });
});

describe('stableMarkdown', () => {
  it('rewrites links and images to pages and files of the revision, not code, not the rest', () => {
    const markdown = 'See [i](install.md#a), [x](https://x.y/) and ![p](../.gitbook/assets/image%20(1).png).\n\n```md\n[i](install.md)\n```\n';
    expect(stableMarkdown(markdown, 'guide/README.md', targets)).toBe(
      'See [i](/pages/install#a), [x](https://x.y/) and ![p](/files/img).\n\n```md\n[i](install.md)\n```\n',
    );
    const stable = stableMarkdown(markdown, 'guide/README.md', targets);
    expect(stableMarkdown(stable, 'guide/README.md', targets)).toBe(stable);
  });
});

describe('includes', () => {
  it('expands {% include %} lines with the included body, front matter dropped and links rebased', async () => {
    const blobs = new Map([['.gitbook/includes/note.md', 'b1']]);
    const read = async (blob: string) => (blob === 'b1' ? '---\ntitle: Note\n---\n\nSee [install](../../guide/install.md).\n' : '');
    const out = await expandIncludes('Before.\n\n{% include "../.gitbook/includes/note.md" %}\n\n{% include "missing.md" %}\n', 'guide/README.md', blobs, read);
    expect(out).toBe('Before.\n\nSee [install](install.md).\n\n{% include "missing.md" %}\n');
    expect(rebaseLinks('[a](b.md) [c](#d) [e](https://f/)', 'x/y.md', 'z.md')).toBe('[a](x/b.md) [c](#d) [e](https://f/)');
  });
});

describe('refTargetsBytes', () => {
  const pages = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `page${String(i).padStart(16, '0')}`, file: `guide/section-${i}/page-${i}.md` }));

  it('counts at least the UTF-16 bytes of every path and id it holds, so a byte budget bounds them', () => {
    const t = refTargets(pages(1000), [{ id: 'img', file: '.gitbook/assets/image (1).png' }]);
    let strings = 0;
    for (const map of [t.pageByFile, t.fileByPath]) for (const [k, v] of map) strings += 2 * (k.length + v.length);
    for (const set of [t.pageIds, t.fileIds]) for (const id of set) strings += 2 * id.length;
    expect(refTargetsBytes(t)).toBeGreaterThan(strings);
  });

  it('grows with the revision: ten times the pages, about ten times the bytes', () => {
    const small = refTargetsBytes(refTargets(pages(100), []));
    const large = refTargetsBytes(refTargets(pages(1000), []));
    expect(large / small).toBeGreaterThan(8);
    expect(large / small).toBeLessThan(12);
  });
});
