import type { TestQuire } from './quire-app';

/**
 * Waits until a space has at least `count` settled git runs of a kind (`imports` or `exports`:
 * completed, failed or skipped) and returns its list, newest first.
 */
export async function settledGitRuns(q: Pick<TestQuire, 'http'>, token: string, spaceId: string, kind: 'imports' | 'exports', count = 1, timeoutMs = 60_000): Promise<any[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = await q.http('GET', `/v1/spaces/${spaceId}/git/${kind}`, { token });
    const done = r.body.items.filter((i: any) => !['queued', 'running'].includes(i.status));
    if (done.length >= count) return r.body.items;
    if (Date.now() > deadline) throw new Error(`${kind} not settled: ${JSON.stringify(r.body.items)}`);
    await new Promise((res) => setTimeout(res, 100));
  }
}
