import { parse } from 'yaml';
import { mergeGitbookConfig } from './merge-gitbook-config';

const theirs = `# Docs of the project (kept by the export)
root: ./docs/

structure:
  readme: README.md
  summary: SUMMARY.md

redirects:
  old/page: new/page.md   # moved in 2024
  gone: README.md
`;

describe('merging a repository’s .gitbook.yaml with Quire’s', () => {
  it('given no change on Quire’s side since the last sync, then the repository’s bytes are kept', () => {
    const quire = 'root: ./docs/\nstructure:\n  readme: README.md\n  summary: SUMMARY.md\nredirects:\n  old/page: new/page.md\n  gone: README.md\n';
    expect(mergeGitbookConfig({ theirs, ours: quire, base: quire })).toBeUndefined();
  });

  it('given redirects Quire added, changed and removed, then they are set in the repository’s file, its comments and other settings kept', () => {
    const base = 'redirects:\n  old/page: new/page.md\n  gone: README.md\n';
    const ours = 'redirects:\n  old/page: guides/page.md\n  added: guides/added.md\n';
    const merged = mergeGitbookConfig({ theirs, ours, base })!;
    expect(parse(merged)).toEqual({
      root: './docs/',
      structure: { readme: 'README.md', summary: 'SUMMARY.md' },
      redirects: { 'old/page': 'guides/page.md', added: 'guides/added.md' },
    });
    expect(merged).toContain('# Docs of the project (kept by the export)');
  });

  it('given a readme or summary path Quire changed, then the repository’s structure follows; what Quire did not change stays theirs', () => {
    const base = 'structure:\n  readme: intro.md\n  summary: SUMMARY.md\n';
    const ours = 'structure:\n  readme: README.md\n  summary: SUMMARY.md\n';
    const merged = parse(mergeGitbookConfig({ theirs: theirs.replace('readme: README.md', 'readme: intro.md').replace('summary: SUMMARY.md', 'summary: toc.md'), ours, base })!);
    expect(merged.structure).toEqual({ readme: 'README.md', summary: 'toc.md' });
  });

  it('given no sync yet (a first export), then Quire’s redirects the repository lacks are added and none is removed', () => {
    const merged = parse(mergeGitbookConfig({ theirs, ours: 'redirects:\n  added: a.md\n' })!);
    expect(merged.redirects).toEqual({ 'old/page': 'new/page.md', gone: 'README.md', added: 'a.md' });
    expect(mergeGitbookConfig({ theirs, ours: 'redirects:\n  gone: README.md\n' })).toBeUndefined();
  });
});
