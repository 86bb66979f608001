import { recordViolations } from './openapi';

describe('recordViolations', () => {
  it('checks a /v1 response against the GitBook operation it answers', () => {
    const violations: string[] = [];
    recordViolations(violations, 'GET', '/v1/spaces/abc', 200, 'application/json; charset=utf-8', '{"object":"space"}');
    expect(violations.length).toBeGreaterThan(0);
    expect(violations[0]).toMatch(/^GET \/spaces\/abc -> 200 \(getSpaceById\)/);
  });

  it('checks error bodies, and leaves non-/v1 and non-JSON responses alone', () => {
    const violations: string[] = [];
    recordViolations(violations, 'GET', '/v1/spaces/abc', 404, 'application/json', '{"message":"nope"}');
    expect(violations).toHaveLength(1);
    recordViolations(violations, 'GET', '/sites/x/y', 200, 'application/json', '{}');
    recordViolations(violations, 'GET', '/v1/spaces/abc', 200, 'text/html', '<p>');
    expect(violations).toHaveLength(1);
  });
});
