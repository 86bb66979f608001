import * as fs from 'fs';

const LOOSE_OBJECT = /[\\/]objects[\\/][0-9a-f]{2}[\\/][0-9a-f]{38}$/;
const PACK_DIR = /[\\/]objects[\\/]pack$/;

/** A "no such file" answer that costs no native exception and no stack trace. */
const missing = Object.assign(new Error('ENOENT: no such file'), { code: 'ENOENT' });

/**
 * The file system as isomorphic-git sees it while an import reads objects from the cache
 * repository, which nothing writes to meanwhile. Profiling a 1,000-page import showed
 * isomorphic-git's bookkeeping around each object read costing more than the reads:
 * - every API call probes the file system by calling `readFile()` with no path, twice
 *   (a native argument error each time);
 * - every call stats the gitdir again;
 * - every object is looked for as a loose file first (a failed open: a native exception),
 *   and the cache repository's objects are all in packs;
 * - the pack folder is listed again for every object.
 * Here the probe and a missing loose object are answered without an exception, and stats
 * and the pack listing are read once: nothing changes under this phase of the import.
 */
export function objectReadFs(): typeof fs {
  const stats = new Map<string, ReturnType<typeof fs.promises.stat>>();
  let packs: Promise<string[]> | undefined;
  const promises = {
    ...fs.promises,
    readFile: ((path: fs.PathLike | undefined, options?: unknown) => {
      if (path === undefined) return Promise.reject(missing);
      if (typeof path === 'string' && LOOSE_OBJECT.test(path) && !fs.existsSync(path)) return Promise.reject(missing);
      return fs.promises.readFile(path, options as never);
    }) as typeof fs.promises.readFile,
    stat: ((path: fs.PathLike, options?: unknown) => {
      if (typeof path !== 'string' || options !== undefined) return fs.promises.stat(path, options as never);
      let stat = stats.get(path);
      if (!stat) {
        stat = fs.promises.stat(path);
        stats.set(path, stat);
      }
      return stat;
    }) as typeof fs.promises.stat,
    readdir: ((path: fs.PathLike, options?: unknown) => {
      if (typeof path === 'string' && PACK_DIR.test(path) && options === undefined) {
        packs ??= fs.promises.readdir(path);
        return packs.then((names) => [...names]);
      }
      return fs.promises.readdir(path, options as never);
    }) as typeof fs.promises.readdir,
  };
  return { ...fs, promises } as typeof fs;
}
