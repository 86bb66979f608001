import { GitImportError } from './import.errors';

export interface RemoteUrl {
  /** The URL without `user:password@` and secret query parameters: the only form that is
   * logged, hashed or shown. */
  url: string;
  /** Credentials that were written into the URL, if any. */
  auth?: { username: string; password: string };
  /** Secret query parameters (`?private_token=...`) taken out of the URL, in order. */
  secretQuery?: Array<[string, string]>;
}

/** Query parameters that carry a credential: GitLab's `private_token`, OAuth's
 * `access_token`, plain `token`, keys, signatures, passwords. */
const SECRET_PARAM = /token|secret|passw|^pass$|^pwd$|api[-_]?key|^key$|^sig$|signature|credential|^auth|^x-amz-/i;

export function isSecretQueryParam(name: string): boolean {
  return SECRET_PARAM.test(name);
}

/** Splits credentials out of an http(s) clone URL. */
export function parseRemoteUrl(input: string): RemoteUrl {
  let parsed: URL;
  try {
    parsed = new URL(input.trim());
  } catch {
    throw new GitImportError('invalid_url', `${redactCredentials(input)} is not a valid URL`, false);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new GitImportError('invalid_url', `Only http(s) git URLs can be imported, not ${parsed.protocol.replace(/:$/, '')}`, false);
  }
  const auth =
    parsed.username || parsed.password
      ? { username: safeDecode(parsed.username), password: safeDecode(parsed.password) }
      : undefined;
  parsed.username = '';
  parsed.password = '';
  parsed.hash = '';
  const secretQuery = takeSecretParams(parsed);
  return { url: parsed.toString().replace(/\/+$/, ''), ...(auth ? { auth } : {}), ...(secretQuery.length ? { secretQuery } : {}) };
}

function takeSecretParams(parsed: URL): Array<[string, string]> {
  const secret = [...parsed.searchParams].filter(([name]) => isSecretQueryParam(name));
  for (const [name] of secret) parsed.searchParams.delete(name);
  if (![...parsed.searchParams].length) parsed.search = '';
  return secret;
}

/**
 * A URL fit to record and show (a tree or commit URL, a provider's URL): without
 * `user:password@` and secret query parameters. Text that is not a URL keeps only the
 * redactions that apply to text.
 */
export function redactUrl(input: string): string {
  let parsed: URL;
  try {
    parsed = new URL(input.trim());
  } catch {
    return redactCredentials(input);
  }
  parsed.username = '';
  parsed.password = '';
  takeSecretParams(parsed);
  return parsed.toString();
}

/** Removes the values of secret-looking query parameters from every URL in a text. */
function redactQuerySecrets(text: string): string {
  return text.replace(/([?&])([^=&#\s]+)=([^&#\s]*)/g, (all, sep: string, name: string) => (isSecretQueryParam(name) ? `${sep}${name}=***` : all));
}

/** Removes `user:password@` and secret query parameter values from every URL in a text. */
export function redactCredentials(text: string): string {
  return redactQuerySecrets(text.replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^/?#\s@]*@/gi, '$1'));
}

/** Redacts URL credentials and any occurrence of the given secrets (a server may echo a
 * password back in an error page). */
export function scrubSecrets(text: string, secrets: Array<string | undefined>): string {
  let out = redactCredentials(text);
  for (const secret of secrets) {
    if (secret) out = out.split(secret).join('***');
  }
  return out;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
