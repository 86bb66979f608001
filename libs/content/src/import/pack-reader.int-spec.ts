import { execFile } from 'child_process';
import { createHash } from 'crypto';
import { promises as fs } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { promisify } from 'util';
import { createRepoFromFiles } from '@quire/test-support/git-http-server';
import { PackObjectReader, parseCommit, parseTree } from './pack-reader';

const execFileAsync = promisify(execFile);

describe('PackObjectReader (objects packed by git itself)', () => {
  let scratch: string;
  let gitdir: string;
  beforeAll(async () => {
    scratch = await fs.mkdtemp(join(tmpdir(), 'quire-pack-reader-'));
    const page = (n: number) => `# Page\n\n${'A line that repeats, so that git stores the next version as a delta.\n'.repeat(200)}${n}\n`;
    gitdir = join(scratch, 'packed.git');
    await createRepoFromFiles(scratch, 'packed', { 'docs/README.md': page(1), 'docs/a/b.md': '# B\n', 'big.bin': Buffer.alloc(300_000, 7) });
    await createRepoFromFiles(scratch, 'packed', { 'docs/README.md': page(2), 'docs/a/b.md': '# B\n', 'big.bin': Buffer.alloc(300_000, 7) }, { message: 'Second' });
    // One pack with deltas (and a large offset table when needed), nothing loose.
    await execFileAsync('git', ['--git-dir', gitdir, 'repack', '-a', '-d', '-f', '--depth=10']);
  });
  afterAll(async () => {
    await fs.rm(scratch, { recursive: true, force: true });
  });
  /** Every object of the repository as git lists it: id, type and the `extra` fields asked for. */
  const packedObjects = async (extra = '') => {
    const { stdout } = await execFileAsync('git', ['--git-dir', gitdir, 'cat-file', '--batch-all-objects', `--batch-check=%(objectname) %(objecttype)${extra && ` ${extra}`}`]);
    return stdout.trim().split('\n').map((line) => line.split(' '));
  };
  /** The id git gives an object of this type and content. */
  const gitHash = (read: { type: string; data: Uint8Array }) => createHash('sha1').update(`${read.type} ${read.data.length}\0`).update(read.data).digest('hex');
  /** Reads every listed object twice over, all at once, and checks each one's type and id. */
  const expectEveryObjectReadWhole = async (objects: PackObjectReader, listed: string[][]) => {
    const reads = await Promise.all([...listed, ...listed].map(([oid]) => objects.read(oid)));
    reads.forEach((read, i) => {
      const [oid, type] = listed[i % listed.length];
      expect(read.type).toBe(type);
      expect(gitHash(read)).toBe(oid);
    });
  };

  it('reads every object of the pack, deltas resolved: each one hashes to its id', async () => {
    const listed = await packedObjects('%(deltabase)');
    expect(listed.some(([, , base]) => !/^0+$/.test(base))).toBe(true);
    const objects = await PackObjectReader.open(gitdir);
    try {
      for (const [oid, type] of listed) {
        const read = await objects.read(oid);
        expect(read.type).toBe(type);
        expect(gitHash(read)).toBe(oid);
      }
      await expect(objects.read('0123456789012345678901234567890123456789')).rejects.toMatchObject({ code: 'NotFoundError' });
    } finally {
      await objects.close();
    }
  });

  it('reads objects concurrently that share delta bases (the bases are read once and shared): each one hashes to its id', async () => {
    const listed = await packedObjects();
    const objects = await PackObjectReader.open(gitdir);
    try {
      // Twice over, all at once: the second round meets the bases the first one cached.
      await expectEveryObjectReadWhole(objects, listed);
    } finally {
      await objects.close();
    }
  });

  it('reads the pack in chunks, not object by object: one read of the disk serves every object of a small pack', async () => {
    const listed = await packedObjects();
    const objects = await PackObjectReader.open(gitdir);
    const probe = await fs.open(join(gitdir, 'HEAD'), 'r');
    const reads = jest.spyOn(Object.getPrototypeOf(probe), 'read');
    await probe.close();
    try {
      for (const [oid] of listed) await objects.read(oid);
      expect(listed.length).toBeGreaterThan(5);
      expect(reads).toHaveBeenCalledTimes(1);
    } finally {
      reads.mockRestore();
      await objects.close();
    }
  });

  it('reads objects that lie across chunks, or are larger than one, whole: each one hashes to its id', async () => {
    const listed = await packedObjects();
    // Chunks of 64 bytes: most objects of this pack cross a chunk's end, the 300 KB blob spans thousands.
    const objects = await PackObjectReader.open(gitdir, { chunkBytes: 64 });
    try {
      await expectEveryObjectReadWhole(objects, listed);
    } finally {
      await objects.close();
    }
  });

  it('parses commits and trees as git lists them', async () => {
    const head = (await execFileAsync('git', ['--git-dir', gitdir, 'rev-parse', 'refs/heads/main'])).stdout.trim();
    const objects = await PackObjectReader.open(gitdir);
    try {
      const commit = parseCommit((await objects.read(head)).data);
      expect(commit).toMatchObject({ message: 'Second\n', author: { name: 'Quire Test', email: 'test@quire.invalid' } });
      const listed = (await execFileAsync('git', ['--git-dir', gitdir, 'ls-tree', head])).stdout.trim().split('\n');
      const entries = parseTree((await objects.read(commit.tree)).data);
      expect(entries.map((e) => `${e.mode} ${e.type} ${e.oid}\t${e.path}`)).toEqual(listed);
    } finally {
      await objects.close();
    }
  });
});
