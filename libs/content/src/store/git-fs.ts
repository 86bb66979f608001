import * as fs from 'fs';

/** Rejection for isomorphic-git's probe, without a native exception and its stack trace. */
const probeAnswer = Object.assign(new Error('readFile without a path'), { code: 'ERR_INVALID_ARG_TYPE' });

/**
 * Node's fs as handed to isomorphic-git. Each isomorphic-git call probes the file system
 * by calling `readFile()` without a path, twice, to learn whether it returns promises;
 * with node's fs each probe builds a native argument error with its stack trace (in a
 * profile of the git import, more time than inflating the objects). The probe is
 * answered here without one; every real call goes to node's fs untouched.
 */
export const gitFs: typeof fs = {
  ...fs,
  promises: {
    ...fs.promises,
    readFile: ((path: fs.PathLike | undefined, options?: unknown) =>
      path === undefined ? Promise.reject(probeAnswer) : fs.promises.readFile(path, options as never)) as typeof fs.promises.readFile,
  },
};
