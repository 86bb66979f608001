import { parseGitRunSecret, secretValues } from './git-run-secret';

describe('parseGitRunSecret', () => {
  it('reads the current form and the older bare credentials', () => {
    expect(parseGitRunSecret(JSON.stringify({ auth: { username: 'u', password: 'p' }, query: [['private_token', 't']] }))).toEqual({
      auth: { username: 'u', password: 'p' },
      query: [['private_token', 't']],
    });
    expect(parseGitRunSecret(JSON.stringify({ username: 'u', password: 'p' }))).toEqual({ auth: { username: 'u', password: 'p' } });
  });

  it('names the values that messages must not repeat: the password and secret query values', () => {
    expect(secretValues({ auth: { username: 'u', password: 'p' }, query: [['private_token', 't']] })).toEqual(['p', 't']);
    expect(secretValues({})).toEqual([]);
  });
});
