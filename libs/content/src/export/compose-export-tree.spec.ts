import { composeExportTree, type TreeFile } from './compose-export-tree';
import { pageRenames, renameSummaryLinks } from './page-renames';

const f = (oid: string, mode = '100644'): TreeFile => ({ oid: oid.padEnd(40, '0'), mode });
const map = (entries: Record<string, TreeFile>) => new Map(Object.entries(entries));
const layout = { docsRoot: '', summaryPath: 'SUMMARY.md', remoteConfig: false };

describe('composeExportTree', () => {
  it('given an empty branch, writes the revision as it is under the project directory', () => {
    const { files, fromSpace } = composeExportTree({ ...layout, docsRoot: 'docs/', summaryPath: 'docs/SUMMARY.md', remote: new Map(), revision: map({ 'README.md': f('a'), 'SUMMARY.md': f('s') }) });
    expect([...files.keys()].sort()).toEqual(['docs/README.md', 'docs/SUMMARY.md']);
    expect(fromSpace).toEqual(new Set([f('a').oid, f('s').oid]));
  });

  it('given a branch in sync with base, keeps its entries for unchanged files (even in another form), writes changed ones, removes deleted ones, keeps what the space never held', () => {
    const remote = map({ 'README.md': f('a'), 'SUMMARY.md': f('s-original'), 'old.md': f('o'), 'link.md': f('l', '120000'), 'package.json': f('p') });
    const base = map({ 'README.md': f('a'), 'SUMMARY.md': f('s-quire'), 'old.md': f('o'), 'link.md': f('l-target') });
    const revision = map({ 'README.md': f('a2'), 'SUMMARY.md': f('s-quire'), 'link.md': f('l-target'), 'new.md': f('n') });
    const { files, fromSpace } = composeExportTree({ ...layout, remote, base, revision });
    expect(Object.fromEntries(files)).toEqual({ 'README.md': f('a2'), 'SUMMARY.md': f('s-original'), 'link.md': f('l', '120000'), 'new.md': f('n'), 'package.json': f('p') });
    expect(fromSpace).toEqual(new Set([f('a2').oid, f('n').oid]));
  });

  it('given no revision in sync (a first export to a branch with content), replaces the markdown and assets of the docs root only', () => {
    const remote = map({ 'docs/a.md': f('a'), 'docs/.gitbook/assets/x.png': f('x'), 'docs/conf.py': f('c'), 'src/main.ts': f('m') });
    const { files } = composeExportTree({ ...layout, docsRoot: 'docs/', summaryPath: 'docs/SUMMARY.md', remote, revision: map({ 'README.md': f('r') }) });
    expect([...files.keys()].sort()).toEqual(['docs/README.md', 'docs/conf.py', 'src/main.ts']);
  });

  it("keeps the repository's own .gitbook.yaml, and writes the summary where it names it", () => {
    const remote = map({ '.gitbook.yaml': f('y'), 'docs/toc.md': f('t') });
    const revision = map({ '.gitbook.yaml': f('quire-yaml'), 'SUMMARY.md': f('s'), 'README.md': f('r') });
    const { files } = composeExportTree({ docsRoot: 'docs/', summaryPath: 'docs/toc.md', remoteConfig: true, remote, revision });
    expect(Object.fromEntries(files)).toEqual({ '.gitbook.yaml': f('y'), 'docs/toc.md': f('s'), 'docs/README.md': f('r') });
  });

  it('puts pages the editor moved back at the paths the branch has them', () => {
    const remote = map({ 'guides/linux.md': f('l'), 'README.md': f('r') });
    const base = map({ 'guides/linux.md': f('l'), 'README.md': f('r') });
    const revision = map({ 'guides/install/linux.md': f('l2'), 'README.md': f('r') });
    const { files } = composeExportTree({ ...layout, remote, base, revision, renames: new Map([['guides/install/linux.md', 'guides/linux.md']]) });
    expect(Object.fromEntries(files)).toEqual({ 'guides/linux.md': f('l2'), 'README.md': f('r') });
  });
});

describe('pageRenames and renameSummaryLinks', () => {
  const page = (id: string, file: string, children: any[] = []) => ({ id, kind: 'sheet' as const, title: id, slug: id, path: id, file, children });

  it('maps moved pages by id, unless another page now holds the old path', () => {
    const base = [page('a', 'README.md'), page('b', 'guides/install.md', [page('c', 'guides/linux.md')]), page('d', 'x.md')];
    const current = [page('a', 'README.md'), page('b', 'guides/install/README.md', [page('c', 'guides/install/linux.md')]), page('e', 'x.md'), page('d', 'y.md')];
    expect(pageRenames(base, current)).toEqual(new Map([['guides/install/README.md', 'guides/install.md'], ['guides/install/linux.md', 'guides/linux.md']]));
  });

  it('rewrites SUMMARY.md link targets, plain and <bracketed>', () => {
    const renames = new Map([['a/README.md', 'a.md'], ['b c.md', 'b d.md']]);
    expect(renameSummaryLinks('* [A](a/README.md)\n* [B](<b c.md>)\n* [X](x.md)\n', renames)).toBe('* [A](a.md)\n* [B](<b d.md>)\n* [X](x.md)\n');
  });
});
