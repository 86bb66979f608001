import { QUEUES } from './queues';

/** The queue of a git run (an import or an export); it also names where the run's credentials wait. */
export type GitRunQueue = typeof QUEUES.gitImport | typeof QUEUES.gitExport;

/** Where a git run's credentials wait for its job (a short-lived key, deleted when the run settles). */
export function gitRunSecretKey(prefix: string, queue: GitRunQueue, runId: string): string {
  return `${prefix}:secret:${queue}:${runId}`;
}

/** What waits under gitRunSecretKey: Basic credentials and secret query parameters
 * (`?private_token=...`) taken out of the request's URL. */
export interface GitRunSecret {
  auth?: { username: string; password: string };
  query?: Array<[string, string]>;
}

/** Reads a stored secret; a bare `{username, password}` is the older form of `{auth}`. */
export function parseGitRunSecret(json: string): GitRunSecret {
  const value = JSON.parse(json) as GitRunSecret & { username?: string; password?: string };
  if (typeof value.username === 'string') return { auth: { username: value.username, password: value.password ?? '' } };
  return { ...(value.auth ? { auth: value.auth } : {}), ...(value.query?.length ? { query: value.query } : {}) };
}

/** The values a failure message or log line must not repeat. */
export function secretValues(secret: GitRunSecret): string[] {
  return [secret.auth?.password, ...(secret.query ?? []).map(([, value]) => value)].filter((v): v is string => !!v);
}
