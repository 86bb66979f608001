/**
 * The space's first page, the one stored as README.md and where a reader lands: the first sheet
 * at the root or directly inside a group. Import, the layout writer and content batches must
 * agree on it, so it is decided here only.
 */
export function firstSheet<P extends { kind: string; children: readonly P[] }>(pages: readonly P[]): P | undefined {
  for (const page of pages) {
    if (page.kind === 'sheet') return page;
    if (page.kind === 'group') {
      const inGroup = page.children.find((child) => child.kind === 'sheet');
      if (inGroup) return inGroup;
    }
  }
  return undefined;
}
