/** A git import job: ids only; the request itself is the GitImportRequested event. */
export interface GitImportJob {
  spaceId: string;
  importId: string;
}

/** Where an import's credentials wait for the job (a short-lived key, deleted when done). */
export function gitImportSecretKey(prefix: string, importId: string): string {
  return `${prefix}:secret:git-import:${importId}`;
}

/** What waits under gitImportSecretKey: Basic credentials and secret query parameters
 * (`?private_token=...`) taken out of the import URL. */
export interface GitImportSecret {
  auth?: { username: string; password: string };
  query?: Array<[string, string]>;
}

/** Reads a stored secret; a bare `{username, password}` is the older form of `{auth}`. */
export function parseGitImportSecret(json: string): GitImportSecret {
  const value = JSON.parse(json) as GitImportSecret & { username?: string; password?: string };
  if (typeof value.username === 'string') return { auth: { username: value.username, password: value.password ?? '' } };
  return { ...(value.auth ? { auth: value.auth } : {}), ...(value.query?.length ? { query: value.query } : {}) };
}
