import { startTestQuire, TestQuire } from '../support/quire-app';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const HTML = Buffer.from('<html><script>fetch("/v1/user")</script></html>').toString('base64');

/** Every route that serves a file's bytes labels them alike: only inert types inline. */
describe('file bytes: one inline-type allow-list for the API and the published site (e2e)', () => {
  let q: TestQuire;

  beforeAll(async () => {
    q = await startTestQuire();
  }, 60_000);
  afterAll(async () => {
    await q?.close();
  });
  afterEach(() => {
    expect(q.violations).toEqual([]);
  });

  it('serves an HTML file as an attachment and an image inline, by the download URL and on the site', async () => {
    const owner = await q.createUser('Uploader');
    const orgId = (await q.http('POST', '/v1/orgs', { token: owner.token, body: { title: 'Files Org' } })).body.id;
    const { data: space } = await owner.api.orgs.createSpace(orgId, { title: 'Files' } as any);
    const { data: cr } = await owner.api.spaces.createChangeRequest(space.id, { subject: 'files' });
    await owner.api.spaces.updateChangeRequestContent(space.id, cr.id, {
      changes: [
        {
          operation: 'insert_files',
          files: [
            { name: 'page.html', contentType: 'text/html', base64: HTML },
            { name: 'pixel.png', contentType: 'image/png', base64: PNG },
          ],
        } as any,
      ],
    });
    expect((await owner.api.spaces.mergeChangeRequest(space.id, cr.id)).data.result).toBe('merge');
    const { data: published } = await owner.api.spaces.updateSpaceById(space.id, { visibility: 'public' } as any);
    const { data: revision } = await owner.api.spaces.getCurrentRevision(space.id);
    const byName = Object.fromEntries(revision.files.map((f: any) => [f.name, f]));

    const expectations = [
      ['page.html', 'application/octet-stream', "attachment; filename*=UTF-8''page.html"],
      ['pixel.png', 'image/png', "inline; filename*=UTF-8''pixel.png"],
    ];
    for (const [name, contentType, disposition] of expectations) {
      const file = byName[name];
      const download = await fetch(q.url + file.downloadURL.slice(q.config.publicUrl.length), { headers: { authorization: `Bearer ${owner.token}` } });
      const onSite = await fetch(`${q.url}${new URL(published.urls.published!).pathname}/~/files/${file.id}/${name}`);
      for (const res of [download, onSite]) {
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe(contentType);
        expect(res.headers.get('content-disposition')).toBe(disposition);
        expect(res.headers.get('x-content-type-options')).toBe('nosniff');
        expect(res.headers.get('content-security-policy')).toContain('sandbox');
      }
    }
  });
});
