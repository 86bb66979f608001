import { Errors } from 'isomorphic-git';
import { GitImportError } from '@quire/content/import';
import { WrongExpectedVersionError } from '@quire/event-store/event-store.port';
import { capWarnings, MAX_STORED_WARNINGS } from '@quire/domain';
import { isTransient } from './git-import-failures';

describe('git import failures: retried or not', () => {
  const withCode = (code: string) => Object.assign(new Error(code), { code });

  it.each([
    ['a transient GitImportError', new GitImportError('unreachable_host', 'x', true), true],
    ['a permanent GitImportError', new GitImportError('ref_not_found', 'x', false), false],
    ['a lost append race', new WrongExpectedVersionError('space-x', 3, 4), true],
    ['a refused connection (Redis, PostgreSQL)', withCode('ECONNREFUSED'), true],
    ['a PostgreSQL connection failure', withCode('08006'), true],
    ['a PostgreSQL serialization failure', withCode('40001'), true],
    ['a PostgreSQL shutdown', withCode('57P01'), true],
    ['a dropped connection', new Error('Connection terminated unexpectedly'), true],
    ['a missing git object', new Errors.NotFoundError('abc123'), false],
    ['a full disk', withCode('ENOSPC'), false],
    ['a bug', new TypeError("Cannot read properties of undefined (reading 'x')"), false],
    ['a PostgreSQL constraint violation', withCode('23505'), false],
  ])('%s -> %s', (_, error, transient) => {
    expect(isTransient(error)).toBe(transient);
  });
});

describe('capWarnings', () => {
  it('keeps up to the limit as they are', () => {
    const warnings = Array.from({ length: MAX_STORED_WARNINGS }, (_, i) => `w${i}`);
    expect(capWarnings(warnings)).toBe(warnings);
  });

  it('keeps the first ones and counts the rest', () => {
    const capped = capWarnings(Array.from({ length: 140 }, (_, i) => `w${i}`));
    expect(capped).toHaveLength(MAX_STORED_WARNINGS + 1);
    expect(capped[0]).toBe('w0');
    expect(capped[MAX_STORED_WARNINGS]).toBe('... and 40 more warnings');
  });
});
