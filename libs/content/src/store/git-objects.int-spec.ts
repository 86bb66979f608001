/**
 * Loose objects as writeObject lays them out (the header in a stored block of its own, then
 * the content deflated on its own): git reads them as its own, and a pack isomorphic-git
 * (patched) builds from them carries the content's compressed bytes as they were written,
 * which git indexes and checks (index-pack --strict inflates every object and verifies its
 * adler-32 and its id).
 */
import { execFileSync } from 'child_process';
import { randomBytes } from 'crypto';
import * as fs from 'fs';
import git from 'isomorphic-git';
import { tmpdir } from 'os';
import { join } from 'path';
import { loosePath, serializeTree, writeObject } from './git-objects';
import { createStoreCaches, type SpaceRepo } from './space-repo';

const env = { PATH: process.env.PATH, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
const gitCli = (gitdir: string, args: string[], input?: Buffer) => execFileSync('git', ['--git-dir', gitdir, ...args], { env, input, maxBuffer: 64 << 20, stdio: 'pipe' });

let scratch: string;
let repo: SpaceRepo;
const contents: Buffer[] = [
  Buffer.alloc(0),
  Buffer.from('a'),
  Buffer.from('# Page\n\nText of a page, long enough to be compressed. '.repeat(40)),
  Buffer.from('blob 5\0hello'),
  randomBytes(100_000),
];
const oids: string[] = [];

beforeAll(async () => {
  scratch = fs.mkdtempSync(join(tmpdir(), 'quire-git-objects-'));
  repo = { spaceId: 'objects', gitdir: join(scratch, 'objects.git'), caches: createStoreCaches() };
  gitCli(repo.gitdir, ['init', '--quiet', '--bare']);
  for (const content of contents) oids.push(await writeObject(repo, 'blob', content));
  oids.push(await writeObject(repo, 'tree', serializeTree(oids.map((oid, i) => ({ name: `file-${i}`, mode: '100644', oid })))));
});

afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

describe('writeObject', () => {
  it("writes objects git reads as its own: git's ids and bytes, and fsck --strict is clean", () => {
    contents.forEach((content, i) => {
      expect(oids[i]).toBe(gitCli(repo.gitdir, ['hash-object', '--stdin'], content).toString().trim());
      expect(gitCli(repo.gitdir, ['cat-file', 'blob', oids[i]]).equals(content)).toBe(true);
    });
    expect(() => gitCli(repo.gitdir, ['fsck', '--strict', '--full', '--no-dangling'])).not.toThrow();
  });

  it("packs with each content's compressed bytes as written, into a pack git indexes and checks", async () => {
    const legacy = gitCli(repo.gitdir, ['hash-object', '-w', '--stdin'], Buffer.from('written by git itself\n')).toString().trim();
    const { packfile } = await git.packObjects({ fs, gitdir: repo.gitdir, oids: [...oids, legacy] });
    const pack = Buffer.from(packfile!);
    const page = fs.readFileSync(loosePath(repo, oids[2]));
    const header = `blob ${contents[2].byteLength}\0`.length;
    // The content's deflate blocks: after the zlib header (2), the stored block's head (5) and
    // the header it holds, before the adler-32 (4).
    expect(pack.indexOf(page.subarray(7 + header, page.byteLength - 4))).toBeGreaterThan(0);

    const target = join(scratch, 'target.git');
    gitCli(target, ['init', '--quiet', '--bare']);
    gitCli(target, ['index-pack', '--strict', '--stdin'], pack);
    for (const [i, content] of contents.entries()) expect(gitCli(target, ['cat-file', 'blob', oids[i]]).equals(content)).toBe(true);
    expect(gitCli(target, ['cat-file', 'blob', legacy]).toString()).toBe('written by git itself\n');
    expect(() => gitCli(target, ['fsck', '--strict', '--full', '--no-dangling'])).not.toThrow();
  });
});
