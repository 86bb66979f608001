import { parseLink, parseSummary, type SummaryEntry, type SummaryItem } from './parse-summary';

/** Compact view: titles with targets, nested. */
function outline(items: SummaryItem[]): unknown[] {
  return items.map((item) =>
    item.type === 'group'
      ? { group: item.title, items: outline(item.items) }
      : item.children.length > 0
        ? { [`${item.title} -> ${item.target ?? '∅'}`]: outline(item.children) }
        : `${item.title} -> ${item.target ?? '∅'}`,
  );
}

function onlyEntry(markdown: string): SummaryEntry {
  const { items } = parseSummary(markdown);
  expect(items).toHaveLength(1);
  return items[0] as SummaryEntry;
}

describe('parseSummary', () => {
  it('reads the optional title, root pages and nesting', () => {
    const summary = parseSummary('# Table of contents\n\n* [Intro](README.md)\n* [A](a/README.md)\n  * [B](a/b.md)\n    * [C](a/b/c.md)\n* [D](d.md)\n');
    expect(summary.title).toBe('Table of contents');
    expect(outline(summary.items)).toEqual([
      'Intro -> README.md',
      { 'A -> a/README.md': [{ 'B -> a/b.md': ['C -> a/b/c.md'] }] },
      'D -> d.md',
    ]);
    expect(summary.warnings).toEqual([]);
  });

  it('starts a group at each ## heading, keeping emoji', () => {
    const summary = parseSummary('* [Home](README.md)\n\n## 🚀 Getting started\n\n* [Install](gs/install.md)\n\n## ❓ FAQ\n\n* [Why](faq/why.md)\n');
    expect(outline(summary.items)).toEqual([
      'Home -> README.md',
      { group: '🚀 Getting started', items: ['Install -> gs/install.md'] },
      { group: '❓ FAQ', items: ['Why -> faq/why.md'] },
    ]);
  });

  it.each(['***', '---', '___', '* * *'])('ends the current group at a %s rule', (rule) => {
    const summary = parseSummary(`## Overview\n\n* [How](overview/how.md)\n\n${rule}\n\n* [Networks](networks/README.md)\n`);
    expect(outline(summary.items)).toEqual([{ group: 'Overview', items: ['How -> overview/how.md'] }, 'Networks -> networks/README.md']);
  });

  it.each([
    ['two spaces', '  '],
    ['four spaces', '    '],
    ['a tab', '\t'],
  ])('nests by %s of indentation', (_name, unit) => {
    const summary = parseSummary(`- [A](a.md)\n${unit}- [B](b.md)\n${unit}${unit}+ [C](c.md)\n${unit}- [D](d.md)\n- [E](e.md)\n`);
    expect(outline(summary.items)).toEqual([{ 'A -> a.md': [{ 'B -> b.md': ['C -> c.md'] }, 'D -> d.md'] }, 'E -> e.md']);
  });

  it('attaches a child indented by an odd width to the nearest shallower bullet', () => {
    const summary = parseSummary('* [A](a.md)\n   * [B](b.md)\n  * [C](c.md)\n');
    expect(outline(summary.items)).toEqual([{ 'A -> a.md': ['B -> b.md', 'C -> c.md'] }]);
  });

  it('undoes escapes and entities in titles', () => {
    expect(onlyEntry('* [Install by RPM Package \\(Red Hat Linux\\)](install.md)').title).toBe('Install by RPM Package (Red Hat Linux)');
    expect(onlyEntry('* [pg\\_lsn \\[beta\\] &#x26; more](x.md)').title).toBe('pg_lsn [beta] & more');
    expect(onlyEntry('* [Config File Syntax (YAML)](c.md)').title).toBe('Config File Syntax (YAML)');
    expect(onlyEntry('* [Nested [brackets] here](n.md)').title).toBe('Nested [brackets] here');
  });

  it.each([
    ['preface/01\\_intro-whatis.md', 'preface/01_intro-whatis.md'],
    ['assets/my%20page.md', 'assets/my page.md'],
    ['<my page (draft).md>', 'my page (draft).md'],
    ['page.md#section', 'page.md'],
    ['page%2.md', 'page%2.md'],
    ['image (1).md', 'image (1).md'],
    ['中文/頁面.md', '中文/頁面.md'],
  ])('decodes the link target %s', (written, decoded) => {
    const entry = onlyEntry(`* [T](${written})`);
    expect(entry.target).toBe(decoded);
    expect(entry.external).toBe(false);
  });

  it('reads the quoted link title in any of the three forms', () => {
    expect(onlyEntry('* [Long title](go.md "Go")').linkTitle).toBe('Go');
    expect(onlyEntry("* [Long title](go.md 'Go')").linkTitle).toBe('Go');
    expect(onlyEntry('* [Long title](go.md (Go))').linkTitle).toBe('Go');
    expect(onlyEntry('* [Long title](go.md "Say \\"hi\\"")').linkTitle).toBe('Say "hi"');
    expect(onlyEntry('* [Long title](go.md)').linkTitle).toBeUndefined();
  });

  it('keeps external targets as written and marks them', () => {
    const entry = onlyEntry('* [Terms](https://policies.example.com/terms?a=1#x)');
    expect(entry).toMatchObject({ title: 'Terms', target: 'https://policies.example.com/terms?a=1#x', external: true });
    expect(onlyEntry('* [Mail](mailto:team@example.com)').external).toBe(true);
  });

  it('keeps a bullet without a link, with its children', () => {
    const summary = parseSummary('* [Install](install/README.md)\n  * Obsolete Installation\n    * [Old](install/old.md)\n');
    expect(outline(summary.items)).toEqual([{ 'Install -> install/README.md': [{ 'Obsolete Installation -> ∅': ['Old -> install/old.md'] }] }]);
  });

  it('takes an empty target or a bare anchor as no link (not the README of the folder)', () => {
    const summary = parseSummary('* [Empty]()\n* [Anchor only](#part)\n* [Page](page.md#part)\n');
    expect(outline(summary.items)).toEqual(['Empty -> ∅', 'Anchor only -> ∅', 'Page -> page.md']);
  });

  it('ignores prose, HTML comments and fenced blocks', () => {
    const summary = parseSummary(
      '# Summary\n\nSome intro text.\n\n<!-- * [Hidden](hidden.md) -->\n<!--\n* [Also hidden](h2.md)\n-->\n```yaml\n* [In fence](f.md)\n```\n* [Shown](shown.md)\n',
    );
    expect(outline(summary.items)).toEqual(['Shown -> shown.md']);
    expect(summary.warnings).toEqual(['SUMMARY.md line 9: fenced block ignored (computed pages are not supported)']);
  });

  it('accepts CRLF line endings, a BOM and ordered lists', () => {
    const summary = parseSummary('\uFEFF# Summary\r\n\r\n1. [A](a.md)\r\n   1. [B](b.md)\r\n');
    expect(summary.title).toBe('Summary');
    expect(outline(summary.items)).toEqual([{ 'A -> a.md': ['B -> b.md'] }]);
  });

  it('records the line of each entry', () => {
    const summary = parseSummary('# T\n\n* [A](a.md)\n\n## G\n\n* [B](b.md)\n');
    expect((summary.items[0] as SummaryEntry).line).toBe(3);
    expect(summary.items[1]).toMatchObject({ type: 'group', line: 5 });
  });
});

describe('parseSummary on real-world SUMMARY edge cases', () => {
  it('skips an OpenAPI bullet up to its indented closing fence and keeps the rest of the table', () => {
    const summary = parseSummary(
      [
        '* [Start](README.md)',
        '* ```yaml',
        '  type: builtin:openapi',
        '  props:',
        '    models: true',
        '  dependencies:',
        '    spec:',
        '      ref:',
        '        kind: openapi',
        '        spec: petstore',
        '  ```',
        '* ```yaml',
        '  type: builtin:openapi',
        '  ```',
        '## Guides',
        '* [X](g/x.md)',
      ].join('\n'),
    );
    expect(outline(summary.items)).toEqual(['Start -> README.md', { group: 'Guides', items: ['X -> g/x.md'] }]);
    expect(summary.warnings).toEqual(['SUMMARY.md line 2: OpenAPI pages (builtin:openapi) are not imported']);
  });

  it('finds the link inside emphasis, reference links, HTML anchors and autolinks', () => {
    const summary = parseSummary(
      ['* **[C](c.md)**', '* [A][a]', '* <a href="h.md" title="Hi">H &amp; <b>I</b></a>', '* <https://x.example>', '', '[a]: a.md "Ref title"'].join('\n'),
    );
    expect(outline(summary.items)).toEqual(['C -> c.md', 'A -> a.md', 'H & I -> h.md', 'https://x.example -> https://x.example']);
    expect((summary.items[1] as SummaryEntry).linkTitle).toBe('Ref title');
    expect((summary.items[2] as SummaryEntry).linkTitle).toBe('Hi');
    expect((summary.items[3] as SummaryEntry).external).toBe(true);
  });

  it('takes the plain text of the link as the title', () => {
    expect(onlyEntry('* [`a()` function](a.md)').title).toBe('a() function');
    expect(onlyEntry('* [E: *emph* and __strong__](e.md)').title).toBe('E: emph and strong');
    expect(onlyEntry('* [pg\\_lsn](x.md)').title).toBe('pg_lsn');
    expect(onlyEntry('* **Just a header**').title).toBe('Just a header');
  });

  it('drops formatting HTML from titles but keeps what only looks like a tag', () => {
    expect(onlyEntry('* [Optional<T> and Map<K, V>](o.md)').title).toBe('Optional<T> and Map<K, V>');
    expect(onlyEntry('* [List<String>](l.md)').title).toBe('List<String>');
    expect(onlyEntry('* [<b>Bold</b> <code>move</code> line<br>two](b.md)').title).toBe('Bold move line two');
    expect(onlyEntry('* [Hostile <script>x</script>](h.md)').title).toBe('Hostile <script>x</script>');
  });

  it('treats every heading after the title as a group, warning for levels other than ##', () => {
    const summary = parseSummary('# Table of contents\n\n* [Home](README.md)\n\n# Part One\n\n* [A](a.md)\n\n### Part Two\n\n* [B](b.md)\n\n## Part Three\n\n* [C](c.md)\n');
    expect(summary.title).toBe('Table of contents');
    expect(outline(summary.items)).toEqual([
      'Home -> README.md',
      { group: 'Part One', items: ['A -> a.md'] },
      { group: 'Part Two', items: ['B -> b.md'] },
      { group: 'Part Three', items: ['C -> c.md'] },
    ]);
    expect(summary.warnings).toHaveLength(2);
    expect(summary.warnings[0]).toContain('line 5: "# Part One" read as a page group');
  });

  it('reads *, - and + bullets, tab indentation, CRLF and a BOM together', () => {
    const summary = parseSummary('\uFEFF# Summary\r\n\r\n+ [Home](README.md)\r\n+ [A](a.md)\r\n\t- [B](my%20b.md#part)\r\n\t\t* [C](<c d.md>)\r\n');
    expect(summary.title).toBe('Summary');
    expect(outline(summary.items)).toEqual(['Home -> README.md', { 'A -> a.md': [{ 'B -> my b.md': ['C -> c d.md'] }] }]);
  });
});

describe('parseLink', () => {
  it('rejects what is not an inline link', () => {
    expect(parseLink('[A][ref]')).toBeUndefined();
    expect(parseLink('[A]')).toBeUndefined();
    expect(parseLink('[A](unclosed.md')).toBeUndefined();
    expect(parseLink('Plain text')).toBeUndefined();
  });

  it('balances parentheses in a bare destination', () => {
    expect(parseLink('[A](x(1).md)')).toEqual({ text: 'A', destination: 'x(1).md', title: undefined });
  });

  it('falls back to everything up to the last parenthesis for hand-written targets', () => {
    expect(parseLink('[A](my page (1).md)')).toEqual({ text: 'A', destination: 'my page (1).md', title: undefined });
    expect(parseLink('[A](my page.md "Short")')).toEqual({ text: 'A', destination: 'my page.md', title: 'Short' });
  });
});
