import { mergeFiles, type FileVersion } from './merge-files';

const encoder = new TextEncoder();
const decode = (bytes: unknown) => new TextDecoder().decode(bytes as Uint8Array);

/** Blobs by fake oid: the merge only needs oids to compare and bytes to read. */
function repo(contents: Record<string, string | Uint8Array>) {
  const readBlob = async (oid: string) => {
    const content = contents[oid];
    if (content === undefined) throw new Error(`no blob ${oid}`);
    return typeof content === 'string' ? encoder.encode(content) : content;
  };
  return { readBlob };
}

function files(entries: Record<string, string>, mode = '100644'): Map<string, FileVersion> {
  return new Map(Object.entries(entries).map(([path, oid]) => [path, { oid, mode }]));
}

describe('mergeFiles', () => {
  const { readBlob } = repo({
    base: 'a\nb\nc\nd\ne\n',
    oursLine: 'A\nb\nc\nd\ne\n',
    theirsLine: 'a\nb\nc\nd\nE\n',
    oursSame: 'a\nb\nX\nd\ne\n',
    theirsSame: 'a\nb\nY\nd\ne\n',
    other: 'other\n',
    binBase: new Uint8Array([0x89, 0x50, 0, 1]),
    binOurs: new Uint8Array([0x89, 0x50, 0, 2]),
    binTheirs: new Uint8Array([0x89, 0x50, 0, 3]),
  });

  it('takes each side where only it changed a file, including additions and deletions', async () => {
    const result = await mergeFiles({
      base: files({ 'keep.md': 'base', 'ours-edits.md': 'base', 'theirs-deletes.md': 'base', 'ours-deletes.md': 'base' }),
      ours: files({ 'keep.md': 'base', 'ours-edits.md': 'other', 'theirs-deletes.md': 'base', 'new-ours.md': 'other' }),
      theirs: files({ 'keep.md': 'base', 'ours-edits.md': 'base', 'ours-deletes.md': 'base', 'new-theirs.md': 'other' }),
      readBlob,
    });
    expect(result.conflicts).toEqual([]);
    expect(result.files).toEqual({
      'keep.md': { oid: 'base', mode: '100644' },
      'ours-edits.md': { oid: 'other', mode: '100644' },
      'new-ours.md': { oid: 'other', mode: '100644' },
      'new-theirs.md': { oid: 'other', mode: '100644' },
    });
  });

  it('accepts the same change, or the same deletion, on both sides', async () => {
    const result = await mergeFiles({
      base: files({ 'a.md': 'base', 'b.md': 'base' }),
      ours: files({ 'a.md': 'other' }),
      theirs: files({ 'a.md': 'other' }),
      readBlob,
    });
    expect(result).toEqual({ files: { 'a.md': { oid: 'other', mode: '100644' } }, conflicts: [] });
  });

  it('merges text both sides changed on different lines', async () => {
    const result = await mergeFiles({ base: files({ 'p.md': 'base' }), ours: files({ 'p.md': 'oursLine' }), theirs: files({ 'p.md': 'theirsLine' }), readBlob });
    expect(result.conflicts).toEqual([]);
    expect(decode(result.files['p.md'])).toBe('A\nb\nc\nd\nE\n');
  });

  it('writes markers where both sides changed the same line, with the labels given', async () => {
    const result = await mergeFiles({
      base: files({ 'p.md': 'base' }),
      ours: files({ 'p.md': 'oursSame' }),
      theirs: files({ 'p.md': 'theirsSame' }),
      readBlob,
      labels: { ours: 'change request', theirs: 'space' },
    });
    expect(result.conflicts).toEqual([{ path: 'p.md', kind: 'content' }]);
    expect(decode(result.files['p.md'])).toBe('a\nb\n<<<<<<< change request\nX\n=======\nY\n>>>>>>> space\nd\ne\n');
  });

  it('keeps ours for a binary file both sides changed, and reports it', async () => {
    const result = await mergeFiles({ base: files({ 'i.png': 'binBase' }), ours: files({ 'i.png': 'binOurs' }), theirs: files({ 'i.png': 'binTheirs' }), readBlob });
    expect(result).toEqual({ files: { 'i.png': { oid: 'binOurs', mode: '100644' } }, conflicts: [{ path: 'i.png', kind: 'content' }] });
  });

  it('keeps the changed file of a delete/modify, whichever side deleted', async () => {
    const oursDeleted = await mergeFiles({ base: files({ 'p.md': 'base' }), ours: files({}), theirs: files({ 'p.md': 'other' }), readBlob });
    expect(oursDeleted).toEqual({ files: { 'p.md': { oid: 'other', mode: '100644' } }, conflicts: [{ path: 'p.md', kind: 'delete-modify' }] });
    const theirsDeleted = await mergeFiles({ base: files({ 'p.md': 'base' }), ours: files({ 'p.md': 'other' }), theirs: files({}), readBlob });
    expect(theirsDeleted.conflicts).toEqual([{ path: 'p.md', kind: 'delete-modify' }]);
  });

  it('reports add/add for different files added at one path', async () => {
    const result = await mergeFiles({ base: files({}), ours: files({ 'n.md': 'oursSame' }), theirs: files({ 'n.md': 'theirsSame' }), readBlob });
    expect(result.conflicts).toEqual([{ path: 'n.md', kind: 'add-add' }]);
    expect(decode(result.files['n.md'])).toBe('a\nb\n<<<<<<< ours\nX\n=======\nY\n>>>>>>> theirs\nd\ne\n');
  });

  it('lets a mode change on one side through', async () => {
    const result = await mergeFiles({
      base: files({ 'run.sh': 'base' }),
      ours: files({ 'run.sh': 'base' }, '100755'),
      theirs: files({ 'run.sh': 'base' }),
      readBlob,
    });
    expect(result).toEqual({ files: { 'run.sh': { oid: 'base', mode: '100755' } }, conflicts: [] });
  });

  it('moves a file aside when the other side made its path a folder', async () => {
    const result = await mergeFiles({
      base: files({}),
      ours: files({ guide: 'other' }),
      theirs: files({ 'guide/README.md': 'base' }),
      readBlob,
    });
    expect(result.conflicts).toEqual([{ path: 'guide', kind: 'file-directory' }]);
    expect(Object.keys(result.files).sort()).toEqual(['guide/README.md', 'guide~ours']);
  });

  it('reads only the blobs of files both sides changed', async () => {
    const read: string[] = [];
    await mergeFiles({
      base: files({ 'a.md': 'base', 'b.md': 'base', 'p.md': 'base' }),
      ours: files({ 'a.md': 'other', 'b.md': 'base', 'p.md': 'oursLine' }),
      theirs: files({ 'a.md': 'base', 'p.md': 'theirsLine' }),
      readBlob: (oid) => {
        read.push(oid);
        return readBlob(oid);
      },
    });
    expect(read.sort()).toEqual(['base', 'oursLine', 'theirsLine']);
  });
});
