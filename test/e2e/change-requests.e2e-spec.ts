import { execFileSync } from 'child_process';
import { setTimeout as sleep } from 'timers/promises';
import { join } from 'path';
import { GitBookAPI } from '@gitbook/api';
import { startTestQuire, TestQuire } from '../support/quire-app';

type User = Awaited<ReturnType<TestQuire['createUser']>>;

describe('change requests (e2e, official client)', () => {
  let q: TestQuire;
  let owner: User;
  let orgId: string;

  beforeAll(async () => {
    q = await startTestQuire();
    owner = await q.createUser('CR Owner');
    orgId = (await q.http('POST', '/v1/orgs', { token: owner.token, body: { title: 'CR Org' } })).body.id;
  });
  afterAll(async () => {
    await q?.close();
  });
  afterEach(() => {
    expect(q.violations).toEqual([]);
  });

  it('a merge asked again once it is recorded answers only when the read models show it', async () => {
    const { data: space } = await owner.api.orgs.createSpace(orgId, { title: 'Asked twice' } as any);
    const { data: cr } = await owner.api.spaces.createChangeRequest(space.id, { subject: 'twice' });
    await owner.api.spaces.updateChangeRequestContent(space.id, cr.id, { changes: [{ operation: 'insert_page', title: 'Twice', document: { markdown: '# Twice\n' } }] });
    const liveTitles = async () => ((await owner.api.spaces.getCurrentRevision(space.id)).data.pages as any[]).map((p) => p.title);
    // A transaction in flight holds every reader of $all before it (quire_read_horizon): the read
    // models stay where they are, as on a host too busy to apply the merge for a while.
    const db = q.started.runtime.db;
    const blocker = await db.acquireConnection();
    let first: Promise<any> | undefined;
    let again: Promise<any> | undefined;
    try {
      await blocker.query('BEGIN');
      await blocker.query('SELECT pg_current_xact_id()');
      first = owner.api.spaces.mergeChangeRequest(space.id, cr.id);
      first.catch(() => undefined);
      for (;;) {
        const r = await db.query(`SELECT 1 FROM quire_events WHERE stream_id = $1 AND type = 'ChangeRequestMerged'`, [`change-request-${cr.id}`]);
        if (r.rows.length) break;
        await sleep(50);
      }
      // The merge is recorded; its job waits for the read models. Asked again, it must not answer before them.
      again = owner.api.spaces.mergeChangeRequest(space.id, cr.id);
      again.catch(() => undefined);
      if ((await Promise.race([again.then(() => 'answered'), sleep(1_500, 'waiting', { ref: false })])) === 'answered') expect(await liveTitles()).toContain('Twice');
    } finally {
      await blocker.query('ROLLBACK').catch(() => undefined);
      blocker.release();
    }
    expect((await again).data.result).toBe('merge');
    expect(await liveTitles()).toContain('Twice');
    expect((await first).data.result).toBe('merge');
  });

  /** A space whose live content has a few pages, written through a merged change request. */
  async function spaceWithPages(title: string, api: GitBookAPI = owner.api) {
    const { data: space } = await api.orgs.createSpace(orgId, { title } as any);
    const { data: cr } = await api.spaces.createChangeRequest(space.id, { subject: 'seed' });
    await api.spaces.updateChangeRequestContent(space.id, cr.id, {
      changes: [
        { operation: 'insert_page', title: 'Guide', document: { markdown: '# Guide\n\nline 1\nline 2\nline 3\nline 4\nline 5\n' } },
        { operation: 'insert_page', title: 'FAQ', document: { markdown: '# FAQ\n\nQ?\n\nA.\n' } },
      ],
    });
    const { data: merged } = await api.spaces.mergeChangeRequest(space.id, cr.id);
    expect(merged.result).toBe('merge');
    return { space: (await api.spaces.getSpaceById(space.id)).data, pages: await pagesByTitle(api, space.id) };
  }

  async function pagesByTitle(api: GitBookAPI, spaceId: string, changeRequestId?: string): Promise<Record<string, any>> {
    const { data: revision } = changeRequestId ? await api.spaces.getRevisionOfChangeRequestById(spaceId, changeRequestId) : await api.spaces.getCurrentRevision(spaceId);
    const out: Record<string, any> = {};
    const walk = (pages: any[]) => pages.forEach((p) => ((out[p.title] = p), walk(p.pages ?? [])));
    walk(revision.pages as any[]);
    return out;
  }

  const markdown = async (api: GitBookAPI, spaceId: string, path: string, changeRequestId?: string) =>
    ((changeRequestId
      ? await api.spaces.getPageInChangeRequestByPath(spaceId, changeRequestId, path, { format: 'markdown' })
      : await api.spaces.getPageByPath(spaceId, path, { format: 'markdown' })
    ).data as any).markdown as string;

  describe('create, read, list and edit', () => {
    it('creates drafts numbered per space from the live revision, with a Location, and counts them on the space', async () => {
      const { data: space } = await owner.api.orgs.createSpace(orgId, { title: 'Numbers' } as any);
      const created = await owner.api.spaces.createChangeRequest(space.id, { subject: 'First' });
      expect(created.status).toBe(201);
      expect(created.headers.get('location')).toBe(`${q.config.publicUrl}/v1/spaces/${space.id}/change-requests/${created.data.id}`);
      expect(created.data).toMatchObject({
        object: 'change-request',
        number: 1,
        status: 'draft',
        subject: 'First',
        space: space.id,
        revision: space.revision,
        revisionInitial: space.revision,
        outdated: false,
        comments: 0,
        createdBy: { id: owner.id },
      });
      const { data: second } = await owner.api.spaces.createChangeRequest(space.id, {});
      expect(second).toMatchObject({ number: 2, subject: '' });
      const { data: after } = await owner.api.spaces.getSpaceById(space.id);
      expect(after).toMatchObject({ changeRequests: 2, changeRequestsDraft: 2, changeRequestsOpen: 0 });
    });

    it('reads one by id or by number, and answers 404 for unknown ones', async () => {
      const { data: space } = await owner.api.orgs.createSpace(orgId, { title: 'Read' } as any);
      const { data: cr } = await owner.api.spaces.createChangeRequest(space.id, { subject: 'Read me' });
      expect((await owner.api.spaces.getChangeRequestById(space.id, cr.id)).data).toMatchObject({ id: cr.id, subject: 'Read me' });
      expect((await owner.api.spaces.getChangeRequestById(space.id, String(cr.number))).data.id).toBe(cr.id);
      await expect(owner.api.spaces.getChangeRequestById(space.id, 'nope')).rejects.toMatchObject({ code: 404 });
      await expect(owner.api.spaces.getChangeRequestById(space.id, '99')).rejects.toMatchObject({ code: 404 });
      const { data: other } = await owner.api.orgs.createSpace(orgId, { title: 'Other' } as any);
      await expect(owner.api.spaces.getChangeRequestById(other.id, cr.id)).rejects.toMatchObject({ code: 404 });
    });

    it('edits subject, description and status; archived and back; minimal preference answers 204', async () => {
      const { data: space } = await owner.api.orgs.createSpace(orgId, { title: 'Edit' } as any);
      const { data: cr } = await owner.api.spaces.createChangeRequest(space.id, { subject: 'Old' });
      const description = { object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Why this change', marks: [] }] }] }] };
      const { data: edited } = await owner.api.spaces.updateChangeRequestById(space.id, cr.id, { subject: 'New', description: description as any, status: 'open' });
      expect(edited).toMatchObject({ subject: 'New', status: 'open', description: { object: 'document' } });
      expect(JSON.stringify(edited.description)).toContain('Why this change');
      expect((await owner.api.spaces.getSpaceById(space.id)).data).toMatchObject({ changeRequests: 1, changeRequestsOpen: 1, changeRequestsDraft: 0 });

      const minimal = await q.http('PATCH', `/v1/spaces/${space.id}/change-requests/${cr.id}`, { token: owner.token, body: { status: 'archived' }, headers: { prefer: 'return=minimal' } });
      expect(minimal.status).toBe(204);
      expect(minimal.headers.get('preference-applied')).toBe('return=minimal');
      expect((await owner.api.spaces.getChangeRequestById(space.id, cr.id)).data.status).toBe('archived');
      expect((await owner.api.spaces.getSpaceById(space.id)).data).toMatchObject({ changeRequests: 1, changeRequestsOpen: 0, changeRequestsDraft: 0 });
      await expect(owner.api.spaces.mergeChangeRequest(space.id, cr.id)).rejects.toMatchObject({ code: 409 });
      expect((await owner.api.spaces.updateChangeRequestById(space.id, cr.id, { status: 'draft' as any })).data.status).toBe('draft');
    });

    it('rejects bad input with 400', async () => {
      const { data: space } = await owner.api.orgs.createSpace(orgId, { title: 'Bad input' } as any);
      const { data: cr } = await owner.api.spaces.createChangeRequest(space.id, {});
      const long = 'x'.repeat(101);
      await expect(owner.api.spaces.createChangeRequest(space.id, { subject: long })).rejects.toMatchObject({ code: 400 });
      await expect(owner.api.spaces.updateChangeRequestById(space.id, cr.id, { subject: long })).rejects.toMatchObject({ code: 400 });
      await expect(owner.api.spaces.updateChangeRequestById(space.id, cr.id, { status: 'merged' as any })).rejects.toMatchObject({ code: 400 });
      const badList = await q.http('GET', `/v1/spaces/${space.id}/change-requests?orderBy=title`, { token: owner.token });
      expect(badList.status).toBe(400);
      const batch = (changes: unknown) => q.http('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, { token: owner.token, body: { changes } });
      expect((await batch([])).status).toBe(400);
      expect((await batch(Array.from({ length: 51 }, () => ({ operation: 'delete_page', page: 'x' })))).status).toBe(400);
      expect((await batch([{ operation: 'rename_page', page: 'x' }])).status).toBe(400);
      expect((await batch([{ operation: 'insert_files', files: [{ name: 'a.png', base64: 'AAAA' }] }])).body.error.message).toMatch(/contentType/);
      expect((await batch([{ operation: 'insert_files', files: [{ name: 'a.png', url: 'http://127.0.0.1:1/a.png' }] }])).body.error.message).toMatch(/private or reserved/);
      expect((await batch([{ operation: 'insert_files', files: [{ name: 'a.png', url: 'http://10.1.2.3/a.png' }] }])).status).toBe(400);
      const big = Buffer.alloc(1024 * 1024 + 10).toString('base64');
      expect((await batch([{ operation: 'insert_files', files: [{ name: 'big.bin', contentType: 'application/octet-stream', base64: big }] }])).status).toBe(400);
    });

    it('lists open ones by default, filters by status, creator and contributor, orders and pages with a keyset cursor', async () => {
      const other = await q.createUser('CR Other');
      await owner.api.orgs.updateMemberInOrganizationById(orgId, other.id, { role: 'edit' as any });
      const { data: space } = await owner.api.orgs.createSpace(orgId, { title: 'Listing' } as any);
      const ids: string[] = [];
      for (const [i, api] of [owner.api, other.api, owner.api].entries()) {
        const { data } = await api.spaces.createChangeRequest(space.id, { subject: `CR ${i}` });
        ids.push(data.id);
      }
      expect((await owner.api.spaces.listChangeRequestsForSpace(space.id)).data.items).toEqual([]);
      for (const id of ids) await owner.api.spaces.updateChangeRequestById(space.id, id, { status: 'open' });
      // Touch the first one last: it comes first by updatedAt, last by createdAt.
      await other.api.spaces.updateChangeRequestContent(space.id, ids[0], { changes: [{ operation: 'insert_page', title: 'Other', document: {} }] });
      const open = (await owner.api.spaces.listChangeRequestsForSpace(space.id)).data.items.map((c) => c.id);
      expect(open).toEqual([ids[0], ids[2], ids[1]]);
      const byCreated = (await owner.api.spaces.listChangeRequestsForSpace(space.id, { orderBy: 'createdAt' as any })).data.items.map((c) => c.id);
      expect(byCreated).toEqual([ids[2], ids[1], ids[0]]);
      expect((await owner.api.spaces.listChangeRequestsForSpace(space.id, { creator: other.id })).data.items.map((c) => c.id)).toEqual([ids[1]]);
      expect((await owner.api.spaces.listChangeRequestsForSpace(space.id, { contributor: other.id })).data.items.map((c) => c.id)).toEqual([ids[0]]);
      expect((await owner.api.spaces.listChangeRequestsForSpace(space.id, { requestedReviewer: other.id })).data.items).toEqual([]);
      expect((await owner.api.spaces.listChangeRequestsForSpace(space.id, { status: 'draft' as any })).data.items).toEqual([]);

      const first = (await owner.api.spaces.listChangeRequestsForSpace(space.id, { limit: 2 })).data;
      expect(first.items.map((c) => c.id)).toEqual([ids[0], ids[2]]);
      // A change in between does not shift the next page.
      await owner.api.spaces.updateChangeRequestById(space.id, ids[1], { subject: 'Touched' });
      const second = (await owner.api.spaces.listChangeRequestsForSpace(space.id, { limit: 2, page: first.next!.page })).data;
      expect(second.items.map((c) => c.id)).toEqual([]);
      expect(second.next).toBeUndefined();
    });
  });

  describe('content batches', () => {
    it('inserts, updates, moves, deletes and reverts pages in one revision each, readable by id and by path', async () => {
      const { space, pages } = await spaceWithPages('Batch');
      const { data: cr } = await owner.api.spaces.createChangeRequest(space.id, { subject: 'Edits' });
      const { data: update } = await owner.api.spaces.updateChangeRequestContent(
        space.id,
        cr.id,
        {
          changes: [
            { operation: 'insert_page', title: 'Install', into: pages.Guide.id, ref: 'install', document: { markdown: '---\ndescription: Setting up\n---\n\nRun it. See [the FAQ](/pages/' + pages.FAQ.id + ').' } },
            { operation: 'update_page', page: pages.FAQ.id, title: 'Questions', emoji: '1f389' },
            { operation: 'insert_files', files: [{ name: 'dot.png', ref: 'dot', contentType: 'image/png', base64: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==' }] },
          ],
        },
        { compat: false },
      );
      const result = update as any;
      expect(result.changeRequest).toMatchObject({ id: cr.id, outdated: false });
      expect(result.changes).toEqual([
        { object: 'created_page', ref: 'install', page: expect.objectContaining({ object: 'page', id: expect.any(String) }) },
        { object: 'updated_page', page: expect.objectContaining({ id: pages.FAQ.id }) },
      ]);
      expect(result.insertedFiles).toEqual([expect.objectContaining({ name: 'dot.png', contentType: 'image/png', dimensions: { width: 1, height: 1 } })]);
      const installId = result.changes[0].page.id;

      const inCr = await pagesByTitle(owner.api, space.id, cr.id);
      expect(inCr.Install).toMatchObject({ id: installId, path: 'guide/install', description: 'Setting up' });
      expect(inCr.Questions).toMatchObject({ id: pages.FAQ.id, emoji: '1f389' });
      expect(await markdown(owner.api, space.id, 'guide/install', cr.id)).toMatch(/# Install[\s\S]*Run it\. See \[the FAQ\]\(\.\.\/faq\.md\)\./);
      const { data: byId } = await owner.api.spaces.getPageInChangeRequestById(space.id, cr.id, installId, { format: 'document' });
      expect(byId).toMatchObject({ id: installId, document: { object: 'document' } });
      const { data: files } = await owner.api.spaces.listFilesInChangeRequestById(space.id, cr.id);
      expect(files.items.map((f) => f.name)).toEqual(['dot.png']);
      // The space did not move.
      expect((await pagesByTitle(owner.api, space.id)).Install).toBeUndefined();

      const { data: moved } = await owner.api.spaces.updateChangeRequestContent(space.id, cr.id, {
        changes: [
          { operation: 'update_page', page: installId, into: null, at: 0 },
          { operation: 'update_page', page: pages.Guide.id, document: { markdown: '# Guide\n\nRewritten.\n' } },
          { operation: 'delete_page', page: pages.FAQ.id },
        ],
      });
      expect((moved as any).revision).not.toBe(cr.revision);
      const afterMove = await pagesByTitle(owner.api, space.id, cr.id);
      expect(afterMove.Install.id).toBe(installId);
      expect(afterMove.Questions).toBeUndefined();
      expect(await markdown(owner.api, space.id, 'guide', cr.id)).toBe('# Guide\n\nRewritten.\n');

      await owner.api.spaces.updateChangeRequestContent(space.id, cr.id, {
        changes: [
          { operation: 'revert_page', page: pages.FAQ.id },
          { operation: 'revert_page', page: pages.Guide.id },
        ],
      });
      const reverted = await pagesByTitle(owner.api, space.id, cr.id);
      expect(reverted.FAQ.id).toBe(pages.FAQ.id);
      expect(await markdown(owner.api, space.id, 'guide', cr.id)).toBe(await markdown(owner.api, space.id, 'guide'));
      expect((await owner.api.spaces.getChangeRequestById(space.id, cr.id)).data.outdated).toBe(false);
    });

    it('resolves page and file references in content-ref and file tags and in <img src>, and leaves code as written', async () => {
      const { space, pages } = await spaceWithPages('Refs');
      const { data: cr } = await owner.api.spaces.createChangeRequest(space.id, { subject: 'Refs' });
      const dot = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
      const { data: first } = await owner.api.spaces.updateChangeRequestContent(
        space.id,
        cr.id,
        {
          changes: [
            { operation: 'insert_files', files: [{ name: 'report.pdf', ref: 'rep', contentType: 'application/pdf', base64: 'JVBERi0xLjQK' }] },
            {
              operation: 'insert_page',
              title: 'Refs',
              into: pages.Guide.id,
              document: {
                markdown: `{% content-ref url="/pages/${pages.FAQ.id}" %}\n[FAQ](/pages/${pages.FAQ.id})\n{% endcontent-ref %}\n\n{% file src="./rep" %}\nThe report\n{% endfile %}\n\nCode: \`[x](/pages/${pages.FAQ.id})\`\n`,
              },
            },
          ],
        },
        { compat: false },
      );
      const reportId = (first as any).insertedFiles[0].id;
      const { data: second } = await owner.api.spaces.updateChangeRequestContent(
        space.id,
        cr.id,
        {
          changes: [
            { operation: 'insert_files', files: [{ name: 'dot.png', contentType: 'image/png', base64: dot }] },
            { operation: 'update_page', page: pages.FAQ.id, document: { markdown: `# FAQ\n\n{% file src="/files/${reportId}" %}\n\n<img src="/files/${reportId}" alt="">\n` } },
          ],
        },
        { compat: false },
      );
      expect((second as any).insertedFiles).toHaveLength(1);
      const refs = await markdown(owner.api, space.id, 'guide/refs', cr.id);
      expect(refs).toContain('{% content-ref url="../faq.md" %}\n[FAQ](../faq.md)');
      expect(refs).toContain('{% file src="../.gitbook/assets/report.pdf" %}');
      expect(refs).toContain(`Code: \`[x](/pages/${pages.FAQ.id})\``);
      const faq = await markdown(owner.api, space.id, 'faq', cr.id);
      expect(faq).toContain('{% file src=".gitbook/assets/report.pdf" %}');
      expect(faq).toContain('<img src=".gitbook/assets/report.pdf" alt="">');
      // The document form reads them back as references to the page and the file.
      const { data: doc } = await owner.api.spaces.getPageInChangeRequestByPath(space.id, cr.id, 'guide/refs', { format: 'document' } as any);
      const nodes = JSON.stringify((doc as any).document);
      expect(nodes).toContain(JSON.stringify({ kind: 'page', page: pages.FAQ.id }));
      expect(nodes).toContain(JSON.stringify({ kind: 'file', file: reportId }));
    });

    it("refuses a slug for the space's first page (README.md takes its slug from its title) with 400, and sets other pages' slugs", async () => {
      const { space, pages } = await spaceWithPages('First slug');
      const { data: revision } = await owner.api.spaces.getCurrentRevision(space.id);
      const first = (revision.pages as any[]).find((p) => p.kind === 'sheet' || p.type === 'document');
      const { data: cr } = await owner.api.spaces.createChangeRequest(space.id, { subject: 'Slugs' });
      const refused = await q.http('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, {
        token: owner.token,
        body: { changes: [{ operation: 'update_page', page: first.id, slug: 'home' }] },
      });
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toMatch(/first page.*README\.md.*slug.*"home"/);
      // Its own slug is no change; another page's slug is kept.
      await owner.api.spaces.updateChangeRequestContent(space.id, cr.id, {
        changes: [
          { operation: 'update_page', page: first.id, slug: first.slug },
          { operation: 'update_page', page: pages.FAQ.id, slug: 'questions' },
        ],
      } as any);
      const after = await pagesByTitle(owner.api, space.id, cr.id);
      expect(after.FAQ.slug).toBe('questions');
      expect(after[first.title].slug).toBe(first.slug);
    });

    it('reverts only the named blocks of a page with revert_page.block', async () => {
      const { space, pages } = await spaceWithPages('Blocks');
      const { data: cr } = await owner.api.spaces.createChangeRequest(space.id, {});
      await owner.api.spaces.updateChangeRequestContent(space.id, cr.id, {
        changes: [{ operation: 'update_page', page: pages.FAQ.id, document: { markdown: '# FAQ\n\nQ? Asked again.\n\nA. Answered again.\n' } }],
      });
      const { data: page } = await owner.api.spaces.getPageInChangeRequestById(space.id, cr.id, pages.FAQ.id, { format: 'document' });
      const [first] = (page as any).document.nodes;
      await owner.api.spaces.updateChangeRequestContent(space.id, cr.id, { changes: [{ operation: 'revert_page', page: pages.FAQ.id, block: [first.key] }] });
      expect(await markdown(owner.api, space.id, 'faq', cr.id)).toBe('# FAQ\n\nQ?\n\nA. Answered again.\n');
      await expect(
        owner.api.spaces.updateChangeRequestContent(space.id, cr.id, { changes: [{ operation: 'revert_page', page: pages.FAQ.id, block: ['no-such-block'] }] }),
      ).rejects.toMatchObject({ code: 400 });
      await expect(
        owner.api.spaces.updateChangeRequestContent(space.id, cr.id, { changes: [{ operation: 'revert_page', page: pages.FAQ.id, revision: 'no-such-revision' }] }),
      ).rejects.toMatchObject({ code: 404 });
    });

    it('applies concurrent batches on one change request one after the other, losing neither', async () => {
      const { space } = await spaceWithPages('Concurrent batches');
      const { data: cr } = await owner.api.spaces.createChangeRequest(space.id, {});
      await Promise.all(
        ['One', 'Two', 'Three'].map((title) => owner.api.spaces.updateChangeRequestContent(space.id, cr.id, { changes: [{ operation: 'insert_page', title, document: {} }] })),
      );
      expect(Object.keys(await pagesByTitle(owner.api, space.id, cr.id))).toEqual(expect.arrayContaining(['One', 'Two', 'Three', 'Guide', 'FAQ']));
    });

    it('is atomic: one invalid change rejects the batch and writes nothing', async () => {
      const { space, pages } = await spaceWithPages('Atomic');
      const { data: cr } = await owner.api.spaces.createChangeRequest(space.id, {});
      await expect(
        owner.api.spaces.updateChangeRequestContent(space.id, cr.id, {
          changes: [
            { operation: 'insert_page', title: 'Never', document: {} },
            { operation: 'update_page', page: 'no-such-page', title: 'x' },
          ],
        }),
      ).rejects.toMatchObject({ code: 404 });
      await expect(
        owner.api.spaces.updateChangeRequestContent(space.id, cr.id, {
          changes: [
            { operation: 'insert_page', title: 'Never', document: {} },
            { operation: 'update_page', page: pages.Guide.id, slug: 'faq' },
          ],
        }),
      ).rejects.toMatchObject({ code: 400 });
      await expect(
        owner.api.spaces.updateChangeRequestContent(space.id, cr.id, { changes: [{ operation: 'update_page', page: pages.Guide.id, into: pages.Guide.id }] }),
      ).rejects.toMatchObject({ code: 400 });
      const { data: after } = await owner.api.spaces.getChangeRequestById(space.id, cr.id);
      expect(after.revision).toBe(cr.revision);
      expect((await pagesByTitle(owner.api, space.id, cr.id)).Never).toBeUndefined();
      await expect(owner.api.spaces.updateChangeRequestContent(space.id, 'nope', { changes: [{ operation: 'delete_page', page: pages.Guide.id }] })).rejects.toMatchObject({ code: 404 });
    });
  });

  describe('merge and update', () => {
    it('fast-forwards a merge when the space has not moved: a merge revision, the change request merged', async () => {
      const { space, pages } = await spaceWithPages('Fast forward');
      const { data: cr } = await owner.api.spaces.createChangeRequest(space.id, { subject: 'FF' });
      await owner.api.spaces.updateChangeRequestContent(space.id, cr.id, { changes: [{ operation: 'update_page', page: pages.FAQ.id, document: { markdown: '# FAQ\n\nNew answer.\n' } }] });
      const { data: head } = await owner.api.spaces.getChangeRequestById(space.id, cr.id);
      const { data: merged } = await owner.api.spaces.mergeChangeRequest(space.id, cr.id);
      expect(merged.result).toBe('merge');
      const { data: live } = await owner.api.spaces.getCurrentRevision(space.id);
      expect(live.id).toBe(merged.revision);
      expect(live.parents).toEqual([space.revision, head.revision]);
      // GitBook's RevisionTypeMerge: the revision names the change request it merged.
      expect(live).toMatchObject({ type: 'merge', mergedFrom: { object: 'change-request', id: cr.id, number: cr.number } });
      expect(await markdown(owner.api, space.id, 'faq')).toBe('# FAQ\n\nNew answer.\n');
      expect((await pagesByTitle(owner.api, space.id)).FAQ.id).toBe(pages.FAQ.id);
      // The space's repository names the live revision on its main branch: a clone checks it out.
      const gitdir = join(q.config.dataDir, 'spaces', `${space.id}.git`);
      expect(execFileSync('git', ['--git-dir', gitdir, 'rev-parse', 'refs/heads/main']).toString().trim()).toBe(merged.revision);
      expect(execFileSync('git', ['--git-dir', gitdir, 'show', 'HEAD:faq.md']).toString()).toBe('# FAQ\n\nNew answer.\n');
      const { data: done } = await owner.api.spaces.getChangeRequestById(space.id, cr.id);
      expect(done).toMatchObject({ status: 'merged', revisionMerged: merged.revision, mergedBy: { id: owner.id }, outdated: false });
      expect(done.mergedAt).toEqual(expect.any(String));
      // Merging again answers the same merge; a merged change request takes no edits.
      expect((await owner.api.spaces.mergeChangeRequest(space.id, cr.id)).data).toEqual(merged);
      await expect(owner.api.spaces.updateChangeRequestContent(space.id, cr.id, { changes: [{ operation: 'delete_page', page: pages.FAQ.id }] })).rejects.toMatchObject({ code: 409 });
      await expect(owner.api.spaces.updateChangeRequest(space.id, cr.id)).rejects.toMatchObject({ code: 409 });
      expect((await owner.api.spaces.getSpaceById(space.id)).data).toMatchObject({ revision: merged.revision, changeRequests: 2, changeRequestsDraft: 0, changeRequestsOpen: 0 });
    });

    it('marks a change request outdated when the space moves; update brings it up to date; a 3-way merge keeps both sides', async () => {
      const { space, pages } = await spaceWithPages('Outdated');
      const { data: first } = await owner.api.spaces.createChangeRequest(space.id, { subject: 'First' });
      const { data: second } = await owner.api.spaces.createChangeRequest(space.id, { subject: 'Second' });
      await owner.api.spaces.updateChangeRequestContent(space.id, first.id, { changes: [{ operation: 'update_page', page: pages.Guide.id, document: { markdown: '# Guide\n\nline 1 (first)\nline 2\nline 3\nline 4\nline 5\n' } }] });
      await owner.api.spaces.updateChangeRequestContent(space.id, second.id, {
        changes: [
          { operation: 'update_page', page: pages.Guide.id, document: { markdown: '# Guide\n\nline 1\nline 2\nline 3\nline 4\nline 5 (second)\n' } },
          { operation: 'insert_page', title: 'Second page', document: {} },
        ],
      });
      const { data: m1 } = await owner.api.spaces.mergeChangeRequest(space.id, first.id);
      expect(m1.result).toBe('merge');
      expect((await owner.api.spaces.getChangeRequestById(space.id, second.id)).data.outdated).toBe(true);

      const { data: updated } = await owner.api.spaces.updateChangeRequest(space.id, second.id);
      expect(updated.result).toBe('update');
      const { data: afterUpdate } = await owner.api.spaces.getChangeRequestById(space.id, second.id);
      expect(afterUpdate).toMatchObject({ outdated: false, revisionMergedAncestor: m1.revision, revision: updated.revision });
      const { data: updateRevision } = await owner.api.spaces.getRevisionOfChangeRequestById(space.id, second.id);
      expect(updateRevision).toMatchObject({ type: 'update' });
      expect(await markdown(owner.api, space.id, 'guide', second.id)).toBe('# Guide\n\nline 1 (first)\nline 2\nline 3\nline 4\nline 5 (second)\n');
      // Up to date: a second update changes nothing.
      expect((await owner.api.spaces.updateChangeRequest(space.id, second.id)).data).toEqual({ revision: updated.revision, result: 'update' });

      const { data: m2 } = await owner.api.spaces.mergeChangeRequest(space.id, second.id);
      expect(m2.result).toBe('merge');
      expect(await markdown(owner.api, space.id, 'guide')).toBe('# Guide\n\nline 1 (first)\nline 2\nline 3\nline 4\nline 5 (second)\n');
      expect(Object.keys(await pagesByTitle(owner.api, space.id))).toEqual(expect.arrayContaining(['Guide', 'FAQ', 'Second page']));
    });

    it('merges without an update when the space moved elsewhere (3-way), and reports conflicts when both sides changed the same lines', async () => {
      const { space, pages } = await spaceWithPages('Conflicts');
      const { data: a } = await owner.api.spaces.createChangeRequest(space.id, { subject: 'A' });
      const { data: b } = await owner.api.spaces.createChangeRequest(space.id, { subject: 'B' });
      const { data: c } = await owner.api.spaces.createChangeRequest(space.id, { subject: 'C' });
      await owner.api.spaces.updateChangeRequestContent(space.id, a.id, { changes: [{ operation: 'update_page', page: pages.Guide.id, document: { markdown: '# Guide\n\nline 1\nline 2 (A)\nline 3\nline 4\nline 5\n' } }] });
      await owner.api.spaces.updateChangeRequestContent(space.id, b.id, { changes: [{ operation: 'update_page', page: pages.Guide.id, document: { markdown: '# Guide\n\nline 1\nline 2 (B)\nline 3\nline 4\nline 5\n' } }] });
      await owner.api.spaces.updateChangeRequestContent(space.id, c.id, { changes: [{ operation: 'update_page', page: pages.FAQ.id, document: { markdown: '# FAQ\n\nC was here.\n' } }] });
      const { data: ma } = await owner.api.spaces.mergeChangeRequest(space.id, a.id);
      expect(ma.result).toBe('merge');

      const { data: mc } = await owner.api.spaces.mergeChangeRequest(space.id, c.id);
      expect(mc.result).toBe('merge');
      const { data: live } = await owner.api.spaces.getCurrentRevision(space.id);
      expect(live.parents).toEqual([ma.revision, (await owner.api.spaces.getChangeRequestById(space.id, c.id)).data.revision]);
      expect(await markdown(owner.api, space.id, 'faq')).toBe('# FAQ\n\nC was here.\n');
      expect(await markdown(owner.api, space.id, 'guide')).toContain('line 2 (A)');

      const { data: conflicted } = await owner.api.spaces.mergeChangeRequest(space.id, b.id);
      expect(conflicted).toEqual({ revision: mc.revision, result: 'conflicts' });
      expect((await owner.api.spaces.getSpaceById(space.id)).data.revision).toBe(mc.revision);
      expect((await owner.api.spaces.getChangeRequestById(space.id, b.id)).data).toMatchObject({ status: 'draft', outdated: true });

      const { data: updated } = await owner.api.spaces.updateChangeRequest(space.id, b.id);
      expect(updated.result).toBe('conflicts');
      const withMarkers = await markdown(owner.api, space.id, 'guide', b.id);
      expect(withMarkers).toContain('<<<<<<< change request\nline 2 (B)\n=======\nline 2 (A)\n>>>>>>> space\n');
      expect(await markdown(owner.api, space.id, 'faq', b.id)).toBe('# FAQ\n\nC was here.\n');
      expect((await owner.api.spaces.getChangeRequestById(space.id, b.id)).data).toMatchObject({ outdated: false, revisionMergedAncestor: mc.revision });

      // The markers are not merged into the live space: not straight away (a fast-forward)...
      const blocked = await q.http('POST', `/v1/spaces/${space.id}/change-requests/${b.id}/merge`, { token: owner.token });
      expect(blocked.status).toBe(422);
      expect(blocked.body.error.message).toMatch(/conflict markers in guide\b/);
      // ...nor after an edit that leaves them (here, a rename of the conflicting page).
      await owner.api.spaces.updateChangeRequestContent(space.id, b.id, { changes: [{ operation: 'update_page', page: pages.Guide.id, title: 'Guide book', slug: 'guide-book' } as any] });
      const stillBlocked = await q.http('POST', `/v1/spaces/${space.id}/change-requests/${b.id}/merge`, { token: owner.token });
      expect(stillBlocked.status).toBe(422);
      expect(stillBlocked.body.error.message).toMatch(/conflict markers in guide-book\b/);
      // ...nor after a later update that merged cleanly (the markers are the change request's own lines by then).
      const { data: d } = await owner.api.spaces.createChangeRequest(space.id, { subject: 'D' });
      await owner.api.spaces.updateChangeRequestContent(space.id, d.id, { changes: [{ operation: 'insert_page', title: 'Extra', document: { markdown: '# Extra\n' } }] });
      const { data: md } = await owner.api.spaces.mergeChangeRequest(space.id, d.id);
      expect(md.result).toBe('merge');
      expect((await owner.api.spaces.updateChangeRequest(space.id, b.id)).data.result).toBe('update');
      const blockedAfterUpdate = await q.http('POST', `/v1/spaces/${space.id}/change-requests/${b.id}/merge`, { token: owner.token });
      expect(blockedAfterUpdate.status).toBe(422);
      expect(blockedAfterUpdate.body.error.message).toMatch(/conflict markers in guide-book\b/);
      expect((await owner.api.spaces.getSpaceById(space.id)).data.revision).toBe(md.revision);
      expect(await markdown(owner.api, space.id, 'guide')).not.toContain('<<<<<<<');

      // The author resolves the conflict by editing; then the merge goes through.
      await owner.api.spaces.updateChangeRequestContent(space.id, b.id, {
        changes: [{ operation: 'update_page', page: pages.Guide.id, title: 'Guide', slug: 'guide', document: { markdown: '# Guide\n\nline 1\nline 2 (A and B)\nline 3\nline 4\nline 5\n' } } as any],
      });
      const { data: mb } = await owner.api.spaces.mergeChangeRequest(space.id, b.id);
      expect(mb.result).toBe('merge');
      expect(await markdown(owner.api, space.id, 'guide')).toBe('# Guide\n\nline 1\nline 2 (A and B)\nline 3\nline 4\nline 5\n');
      expect(await markdown(owner.api, space.id, 'faq')).toBe('# FAQ\n\nC was here.\n');
    });

    it('holds edits and updates while a merge is pending for as long as its job may run; a request whose job is gone holds nothing', async () => {
      const { space, pages } = await spaceWithPages('Held');
      const { data: cr } = await owner.api.spaces.createChangeRequest(space.id, { subject: 'Held' });
      const edit = () =>
        q.http('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, {
          token: owner.token,
          body: { changes: [{ operation: 'update_page', page: pages.FAQ.id, document: { markdown: '# FAQ\n\nEdited.\n' } }] },
        });
      // A merge whose job is still to be enqueued or running (here it never is: the request alone is recorded).
      const requestMerge = (requestId: string, at: Date) =>
        q.started.runtime.store.append(
          `change-request-${cr.id}`,
          [{ type: 'ChangeRequestMergeRequested', data: { changeRequestId: cr.id, spaceId: space.id, requestId, requestedBy: owner.id, at: at.toISOString() } }],
          'any',
        );
      await requestMerge('held-merge-1', new Date());
      const held = await edit();
      expect(held.status).toBe(409);
      expect(held.body.error.message).toMatch(/being merged/);
      const update = await q.http('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/update`, { token: owner.token });
      expect(update.status).toBe(409);
      expect(update.body.error.message).toMatch(/being merged/);

      // Asked for long ago and no job in the queue: the job was lost, the edit goes through.
      await requestMerge('held-merge-2', new Date(Date.now() - 10 * 60_000));
      expect((await edit()).status).toBe(200);
      expect(await markdown(owner.api, space.id, 'faq', cr.id)).toBe('# FAQ\n\nEdited.\n');
    });

    it('enforces merge rules with 422 (up to date, subject)', async () => {
      const { space, pages } = await spaceWithPages('Rules');
      await owner.api.spaces.updateSpaceById(space.id, { mergeRules: { type: 'rules', rules: [{ rule: 'require_up_to_date_change_request' }, { rule: 'require_change_request_subject' }] } } as any);
      const { data: a } = await owner.api.spaces.createChangeRequest(space.id, { subject: 'A' });
      const { data: b } = await owner.api.spaces.createChangeRequest(space.id, {});
      await owner.api.spaces.updateChangeRequestContent(space.id, a.id, { changes: [{ operation: 'update_page', page: pages.FAQ.id, title: 'FAQ (A)' }] });
      await owner.api.spaces.updateChangeRequestContent(space.id, b.id, { changes: [{ operation: 'insert_page', title: 'From B', document: {} }] });
      expect((await owner.api.spaces.mergeChangeRequest(space.id, a.id)).data.result).toBe('merge');

      const refused = await q.http('POST', `/v1/spaces/${space.id}/change-requests/${b.id}/merge`, { token: owner.token });
      expect(refused.status).toBe(422);
      expect(refused.body.error.message).toMatch(/not up to date/);
      expect(refused.body.error.message).toMatch(/subject/);
      await owner.api.spaces.updateChangeRequest(space.id, b.id);
      await owner.api.spaces.updateChangeRequestById(space.id, b.id, { subject: 'B' });
      expect((await owner.api.spaces.mergeChangeRequest(space.id, b.id)).data.result).toBe('merge');
      const live = await pagesByTitle(owner.api, space.id);
      expect(live['FAQ (A)']).toBeDefined();
      expect(live['From B']).toBeDefined();
    });

    it('lands concurrent merges of one space in some order without losing either change', async () => {
      const { space, pages } = await spaceWithPages('Concurrent');
      const crs = [];
      for (const [i, page] of [pages.Guide, pages.FAQ].entries()) {
        const { data: cr } = await owner.api.spaces.createChangeRequest(space.id, { subject: `Concurrent ${i}` });
        await owner.api.spaces.updateChangeRequestContent(space.id, cr.id, {
          changes: [
            { operation: 'update_page', page: page.id, title: `${page.title} ${i}` },
            { operation: 'insert_page', title: `Page ${i}`, document: { markdown: `Added by ${i}` } },
          ],
        });
        crs.push(cr);
      }
      const results = await Promise.all(crs.map((cr) => owner.api.spaces.mergeChangeRequest(space.id, cr.id)));
      expect(results.map((r) => r.data.result)).toEqual(['merge', 'merge']);
      const live = await pagesByTitle(owner.api, space.id);
      expect(Object.keys(live)).toEqual(expect.arrayContaining(['Guide 0', 'FAQ 1', 'Page 0', 'Page 1']));
      expect(live.Guide).toBeUndefined();
      expect(live.FAQ).toBeUndefined();
      const { data: liveRevision } = await owner.api.spaces.getCurrentRevision(space.id);
      expect([results[0].data.revision, results[1].data.revision]).toContain(liveRevision.id);
      // One landed on top of the other.
      expect(liveRevision.parents).toContain(results[0].data.revision === liveRevision.id ? results[1].data.revision : results[0].data.revision);
    });
  });

  describe('permissions', () => {
    it('edit creates and edits change requests, review merges; read only reads; outsiders see nothing', async () => {
      const { space, pages } = await spaceWithPages('Permissions');
      const users: Record<string, User> = {};
      for (const role of ['read', 'edit', 'review']) {
        users[role] = await q.createUser(`CR ${role}`);
        await owner.api.orgs.updateMemberInOrganizationById(orgId, users[role].id, { role: role as any });
      }
      const stranger = await q.createUser('CR stranger');

      await expect(users.read.api.spaces.createChangeRequest(space.id, {})).rejects.toMatchObject({ code: 403 });
      await expect(stranger.api.spaces.createChangeRequest(space.id, {})).rejects.toMatchObject({ code: 404 });
      const { data: cr } = await users.edit.api.spaces.createChangeRequest(space.id, { subject: 'By an editor' });
      expect((await users.read.api.spaces.getChangeRequestById(space.id, cr.id)).data.id).toBe(cr.id);
      await expect(stranger.api.spaces.getChangeRequestById(space.id, cr.id)).rejects.toMatchObject({ code: 404 });
      await expect(stranger.api.spaces.getPageInChangeRequestByPath(space.id, cr.id, 'faq')).rejects.toMatchObject({ code: 404 });
      expect((await users.read.api.spaces.getPageInChangeRequestByPath(space.id, String(cr.number), 'faq', { format: 'markdown' })).data).toMatchObject({ id: pages.FAQ.id });
      await expect(users.read.api.spaces.getPageInChangeRequestByPath(space.id, cr.id, 'no/such/page')).rejects.toMatchObject({ code: 404 });
      await expect(users.read.api.spaces.getPageInChangeRequestById(space.id, 'nope', pages.FAQ.id)).rejects.toMatchObject({ code: 404 });
      await expect(users.read.api.spaces.updateChangeRequestById(space.id, cr.id, { subject: 'x' })).rejects.toMatchObject({ code: 403 });
      await expect(users.read.api.spaces.updateChangeRequestContent(space.id, cr.id, { changes: [{ operation: 'delete_page', page: pages.FAQ.id }] })).rejects.toMatchObject({ code: 403 });
      await users.edit.api.spaces.updateChangeRequestContent(space.id, cr.id, { changes: [{ operation: 'update_page', page: pages.FAQ.id, title: 'Edited' }] });
      await users.edit.api.spaces.updateChangeRequest(space.id, cr.id);
      await expect(users.edit.api.spaces.mergeChangeRequest(space.id, cr.id)).rejects.toMatchObject({ code: 403 });
      await expect(users.read.api.spaces.updateChangeRequest(space.id, cr.id)).rejects.toMatchObject({ code: 403 });
      expect((await users.review.api.spaces.mergeChangeRequest(space.id, cr.id)).data.result).toBe('merge');

      await owner.api.spaces.updateSpaceById(space.id, { editMode: 'locked' } as any);
      await expect(owner.api.spaces.createChangeRequest(space.id, {})).rejects.toMatchObject({ code: 403 });
      const merged = (await users.read.api.spaces.listChangeRequestsForSpace(space.id, { status: 'merged' as any })).data.items;
      expect(merged.map((c) => c.id)).toContain(cr.id);
      expect(merged.find((c) => c.id === cr.id)).toMatchObject({ mergedBy: { id: users.review.id }, createdBy: { id: users.edit.id } });
    });
  });
});
