import spec from '@gitbook/api/spec/openapi.json';
import { startTestQuire, TestQuire } from './quire-app';

/** Odd path segments and query values: empty, huge, encoded NUL and traversal, RTL override, emoji, not-quite-numbers. */
const ODD_SEGMENTS = ['', 'a'.repeat(5000), '%00', '..%2F..%2Fetc', '%E2%80%AE', '%F0%9F%98%80', 'null', '-1', '1e309', '%25', '[]'];

/** Odd JSON bodies: wrong types everywhere, huge and deeply nested values, text PostgreSQL cannot hold, bad content changes. */
const ODD_BODIES: unknown[] = [
  null,
  [],
  'text',
  42,
  true,
  { title: 42 },
  { title: null, parent: [], role: {}, users: 'x', changes: {}, query: ['a'], visibility: 7, defaultLevel: 'nope', emoji: {}, url: 5, ref: [] },
  { title: 'x'.repeat(200_000), subject: 'y'.repeat(200_000), query: 'q'.repeat(100_000) },
  { title: '\ud800', subject: '\udfff', query: '\ud800', emoji: '\ud800' },
  { title: 'a\u0000b', subject: 'a\u0000', query: 'x\u0000', role: 'read', users: ['a\u0000'] },
  JSON.parse(`{"a":${'['.repeat(3000)}${']'.repeat(3000)}}`),
  { title: 'T', parent: 'x'.repeat(3000), emoji: '1f600'.repeat(100), visibility: 'public', defaultLevel: 'admin', editMode: 'nope', mergeRules: { type: 'x' } },
  { changes: [{ operation: 'nope' }] },
  { changes: [null] },
  { changes: [{ operation: 'insert_page', title: {}, document: 5 }] },
  { changes: [{ operation: 'update_page', page: 'x', document: { markdown: 5 } }] },
  { changes: Array.from({ length: 5000 }, () => ({ operation: 'insert_page', title: 'p', document: { markdown: 'x' } })) },
  // GitBook documents well-formed at the top and not below it.
  ...[
    [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ text: 5 }] }] }],
    [{ object: 'block', type: 'code', data: { syntax: {} }, nodes: 'x' }],
    [{ object: 'block', type: 'images', nodes: [{ object: 'block', type: 'image' }] }],
  ].map((nodes) => ({ changes: [{ operation: 'insert_page', title: 'Doc', document: { document: { object: 'document', nodes } } }] })),
];

/**
 * Every operation of GitBook's OpenAPI spec, and the published site, fed odd ids, queries and
 * bodies, with a token and without: whatever the answer, it is never a 5xx (a 5xx is a bug:
 * bad input is the caller's, and says so with a 4xx). Deleting the space, collection or
 * organization under test is left out so that the rest still has something to act on.
 *
 * Some 27,000 requests, each a few ms of this one thread's CPU (client and server share it): two
 * spec files share them out by operation (`operations` picks the path templates, `site` the
 * published site's requests), each on an installation of its own, so that jest's two workers run
 * them side by side; within a file they are sent CONCURRENCY at a time, so that PostgreSQL round
 * trips do not leave the thread idle.
 */
const CONCURRENCY = 8;

/** The operations of one of the two spec files (`/orgs...`); the other takes every other one, so none is left out. */
export const isOrgOperation = (template: string): boolean => template === '/orgs' || template.startsWith('/orgs/');

export function describeOddInput(part: { title: string; operations: (template: string) => boolean; site: boolean }): void {
  describe(`odd input never gives a 5xx: ${part.title} (e2e)`, () => {
    let q: TestQuire;
    let token: string;
    let ids: Record<string, string>;

    beforeAll(async () => {
      q = await startTestQuire();
      const owner = await q.createUser('Odd input');
      token = owner.token;
      const orgId = (await q.http('POST', '/v1/orgs', { token, body: { title: 'Odd input', hostname: `odd-${Date.now().toString(36)}` } })).body.id;
      const collection = (await owner.api.orgs.createCollection(orgId, { title: 'C' })).data;
      const space = (await owner.api.orgs.createSpace(orgId, { title: 'S', parent: collection.id } as any)).data;
      const cr = (await owner.api.spaces.createChangeRequest(space.id, { subject: 'x' })).data;
      const revision = (await owner.api.spaces.getCurrentRevision(space.id)).data;
      const page = revision.pages[0] as any;
      ids = {
        organizationId: orgId,
        collectionId: collection.id,
        spaceId: space.id,
        changeRequestId: cr.id,
        revisionId: revision.id,
        pageId: page.id,
        pagePath: page.path,
        userId: owner.id,
        integrationName: 'odd-input',
        fileId: 'nofile',
      };
      await q.http('PATCH', `/v1/spaces/${space.id}`, { token, body: { visibility: 'public' } });
    }, 60_000);
    afterAll(async () => {
      await q?.close();
    });

    it(`answers ${part.title} with a 4xx or better`, async () => {
      // Listed first, in the order they were once sent one by one; each body is serialized once
      // (the large ones, ~1 MB together, were stringified again for each request carrying one).
      const oddJson = ODD_BODIES.map((body) => JSON.stringify(body));
      const requests: { method: string; path: string; token?: string; rawBody?: string }[] = [];
      const idFor = (name: string) => ids[name] ?? 'unknown';
      for (const caller of [token, undefined]) {
        for (const [template, item] of Object.entries((spec as any).paths as Record<string, Record<string, unknown>>)) {
          if (!part.operations(template)) continue;
          for (const method of Object.keys(item).filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m)).map((m) => m.toUpperCase())) {
            if (method === 'DELETE' && /\{(spaceId|organizationId|collectionId)\}$/.test(template)) continue;
            const real = `/v1${template.replace(/\{(\w+)\}/g, (_, name: string) => idFor(name))}`;
            if (method === 'GET') {
              for (const odd of ODD_SEGMENTS) requests.push({ method, path: `${real}?limit=${odd}&page=${odd}&format=${odd}&query=${odd}&role=${odd}`, token: caller });
            } else {
              for (const rawBody of oddJson) requests.push({ method, path: real, token: caller, rawBody });
              requests.push({ method, path: real, token: caller, rawBody: '{"a":' });
            }
            if (method === 'DELETE') continue;
            for (const [slot] of template.matchAll(/\{(\w+)\}/g)) {
              for (const odd of ODD_SEGMENTS) {
                const path = `/v1${template.replace(/\{(\w+)\}/g, (whole, name: string) => (whole === slot ? odd : idFor(name)))}`;
                requests.push({ method, path, token: caller, rawBody: method === 'GET' ? undefined : '{}' });
              }
            }
          }
        }
      }
      // Problems are kept by request index, so that they read in the order the requests are listed.
      const problems: string[] = [];
      const sendAll = async (list: typeof requests) => {
        const found: string[] = new Array(list.length);
        let next = 0;
        const sender = async () => {
          while (next < list.length) {
            const i = next++;
            const { method, path, token: caller, rawBody } = list[i];
            const res = await q.http(method, path, { token: caller, rawBody });
            if (res.status >= 500) found[i] = `${res.status} ${method} ${path.slice(0, 120)} ${rawBody?.slice(0, 100) ?? ''} -> ${JSON.stringify(res.body).slice(0, 200)}`;
          }
        };
        await Promise.all(Array.from({ length: CONCURRENCY }, sender));
        problems.push(...found.filter((p) => p !== undefined));
      };
      await sendAll(requests);
      if (part.site) {
        // The published site, as it stands after all of the above.
        const site = new URL((await q.http('GET', `/v1/spaces/${ids.spaceId}`, { token })).body.urls.published).pathname;
        const siteRequests: typeof requests = [];
        for (const odd of ODD_SEGMENTS) {
          for (const path of [
            `${site}/${odd}`,
            `${site}/${odd}/${odd}/${odd}`,
            `${site}/~/files/${odd}`,
            `${site}/~/files/${odd}/${odd}`,
            `${site}/~/search?q=${odd}`,
            `${site}/~/search.json?q=${odd}`,
            `${site}?shareKey=${odd}`,
            `/${odd}/${ids.spaceId}`,
            `/v1/urls/content?url=${odd}`,
          ]) {
            siteRequests.push({ method: 'GET', path });
          }
        }
        await sendAll(siteRequests);
      }
      expect(problems).toEqual([]);
      // And nothing odd reached a projection: all of them still run.
      expect((await q.started.runtime.projector.lag()).failed).toEqual([]);
    }, 300_000);
  });
}
