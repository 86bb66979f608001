import { Errors } from 'isomorphic-git';
import { classifyFetchError } from './fetch-repository';
import { GitImportError } from './import.errors';
import { NetworkTimeoutError, TooManyRedirectsError } from '@quire/content/git-http';
import { RefusedAddressError } from '@quire/platform/net/outbound-guard';

const opts = { url: 'https://git.example.com/docs.git', ref: 'refs/heads/main', auth: { username: 'u', password: 's3cret' } };
const systemError = (code: string) => Object.assign(new Error(`connect ${code} 1.2.3.4:443`), { code });

describe('classifyFetchError', () => {
  it.each([
    [new Errors.HttpError(401, 'Unauthorized', ''), 'auth_failed', false],
    [new Errors.HttpError(403, 'Forbidden', ''), 'auth_failed', false],
    [new Errors.HttpError(404, 'Not Found', ''), 'repo_not_found', false],
    [new Errors.HttpError(500, 'Internal Server Error', ''), 'remote_error', true],
    [new Errors.HttpError(503, 'Service Unavailable', ''), 'remote_error', true],
    [new Errors.HttpError(429, 'Too Many Requests', ''), 'remote_error', true],
    [new Errors.HttpError(400, 'Bad Request', ''), 'remote_error', false],
    [new Errors.SmartHttpError('<html>', '<html>'), 'repo_not_found', false],
    [new Errors.NotFoundError('refs/heads/main'), 'ref_not_found', false],
    [systemError('ENOTFOUND'), 'unreachable_host', false],
    [systemError('EAI_AGAIN'), 'unreachable_host', true],
    [systemError('ECONNREFUSED'), 'unreachable_host', true],
    [systemError('ECONNRESET'), 'unreachable_host', true],
    [systemError('EHOSTUNREACH'), 'unreachable_host', true],
    [new NetworkTimeoutError(100), 'unreachable_host', true],
    [new Error('Request timed out'), 'unreachable_host', true],
    [systemError('CERT_HAS_EXPIRED'), 'unreachable_host', false],
    [new RefusedAddressError('127.0.0.1'), 'unreachable_host', false],
    [new TooManyRedirectsError(), 'remote_error', false],
  ])('%s -> %s (transient: %s)', (error, code, transient) => {
    const classified = classifyFetchError(error, opts);
    expect(classified).toBeInstanceOf(GitImportError);
    expect(classified).toMatchObject({ code, transient });
    expect(classified.message).not.toContain('s3cret');
  });

  it('gives one reason for every address refused or not reached, with no detail that tells services apart', () => {
    const failures = [new RefusedAddressError('git.example.com'), systemError('ENOTFOUND'), systemError('ECONNREFUSED'), systemError('ECONNRESET'), systemError('ETIMEDOUT'), new Error('Request timed out'), systemError('CERT_HAS_EXPIRED')];
    const messages = new Set(failures.map((failure) => classifyFetchError(failure, opts).message));
    expect([...messages]).toEqual([
      'Cannot reach git.example.com: the host is unknown, did not answer, or is not allowed (private and reserved addresses are refused unless an operator allows the host)',
    ]);
  });

  it('says whether credentials were missing or refused', () => {
    expect(classifyFetchError(new Errors.HttpError(401, 'Unauthorized', ''), { ...opts, auth: undefined }).message).toBe(
      'https://git.example.com/docs.git requires credentials (HTTP 401 Unauthorized)',
    );
    expect(classifyFetchError(new Errors.HttpError(401, 'Unauthorized', ''), opts).message).toBe(
      'https://git.example.com/docs.git refused the credentials (HTTP 401 Unauthorized)',
    );
  });

  it('passes unknown errors through with secrets scrubbed', () => {
    const odd = new Error('disk full while writing https://u:s3cret@git.example.com/docs.git');
    const classified = classifyFetchError(odd, opts);
    expect(classified).toBe(odd);
    expect(classified.message).toBe('disk full while writing https://git.example.com/docs.git');
  });

  it('calls an unresolvable HEAD (no ref named) a missing default branch', () => {
    const classified = classifyFetchError(new Errors.NotFoundError('HEAD'), { ...opts, ref: undefined });
    expect(classified).toMatchObject({ code: 'ref_not_found', transient: false });
    expect(classified.message).toMatch(/no default branch/);
  });

  it('only calls a NotFoundError about another name something else', () => {
    expect(classifyFetchError(new Errors.NotFoundError('abc123'), opts)).not.toBeInstanceOf(GitImportError);
  });
});
