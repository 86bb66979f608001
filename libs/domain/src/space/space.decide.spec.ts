import { decideSpace, SpaceCommand } from './space.decide';
import { SpaceEvent } from './space.events';
import { spaceAggregate, SpaceState } from './space.state';

const now = new Date('2026-01-01T00:00:00Z');
const given = (events: SpaceEvent[]) => events.reduce(spaceAggregate.evolve, spaceAggregate.initialState());
const when = (command: SpaceCommand, state: SpaceState, at = now) => decideSpace(command, state, { now: at });
const create = (over: Partial<Extract<SpaceCommand, { type: 'CreateSpace' }>> = {}): SpaceCommand => ({
  type: 'CreateSpace',
  spaceId: 's1',
  organizationId: 'o1',
  title: 'Guide',
  initialRevision: 'r1',
  creatorId: 'u1',
  ...over,
});
const created = (over = {}) => given(when(create(over), given([])));

describe('space', () => {
  it('given nothing, when created, then it has its settings, its first revision and the creator administers it', () => {
    const events = when(create({ emoji: '1f389', language: 'fr' }), given([]));
    expect(events.map((e) => e.type)).toEqual(['SpaceCreated', 'SpaceUserPermissionSet']);
    expect(events[0].data).toMatchObject({ title: 'Guide', emoji: '1f389', language: 'fr', editMode: 'live', defaultLevel: 'inherit', initialRevision: 'r1' });
    const state = given(events);
    expect(state).toMatchObject({ exists: true, revision: 'r1', grants: { u1: 'admin' } });
  });

  it('given nothing, when created without a title, then it is Untitled', () => {
    expect(when(create({ title: undefined }), given([]))[0].data).toMatchObject({ title: 'Untitled' });
  });

  it('refuses a parent collection of another organization and titles over 50 characters', () => {
    expect(() => when(create({ parent: { collectionId: 'c1', organizationId: 'o2' } }), given([]))).toThrow(/another organization/);
    expect(() => when(create({ title: 'x'.repeat(51) }), given([]))).toThrow(/at most 50/);
    expect(when(create({ parent: { collectionId: 'c1', organizationId: 'o1' } }), given([]))[0].data).toMatchObject({ parent: 'c1' });
  });

  it('given a space, when created again, then it conflicts', () => {
    expect(() => when(create(), created())).toThrow(/already exists/);
  });

  it('given a space, when updated, then only what changed is recorded, and nothing when nothing changed', () => {
    const state = created();
    const events = when({ type: 'UpdateSpace', spaceId: 's1', changes: { title: 'Guide', editMode: 'locked', defaultLevel: null } }, state);
    expect(events).toEqual([{ type: 'SpaceUpdated', data: { spaceId: 's1', changes: { editMode: 'locked', defaultLevel: null }, at: now.toISOString() } }]);
    expect(when({ type: 'UpdateSpace', spaceId: 's1', changes: { title: 'Guide' } }, state)).toEqual([]);
  });

  it('keeps an emoji or an icon, not both', () => {
    const withEmoji = given([...when(create({ emoji: '1f389' }), given([]))]);
    const [e] = when({ type: 'UpdateSpace', spaceId: 's1', changes: { icon: 'https://example.com/i.png' } }, withEmoji) as any;
    expect(e.data.changes).toEqual({ icon: 'https://example.com/i.png', emoji: null });
    expect(() => when({ type: 'UpdateSpace', spaceId: 's1', changes: { icon: 'https://x.y/i.png', emoji: '1f389' } }, withEmoji)).toThrow(/either/);
  });

  it('given a space, when deleted twice, then the second is a no-op; restoring brings it back', () => {
    const deleted = given([...[] as SpaceEvent[], ...when(create(), given([])), ...when({ type: 'DeleteSpace', spaceId: 's1' }, created())]);
    expect(deleted.deletedAt).toBe(now.toISOString());
    expect(when({ type: 'DeleteSpace', spaceId: 's1' }, deleted)).toEqual([]);
    expect(() => when({ type: 'UpdateSpace', spaceId: 's1', changes: { title: 'x' } }, deleted)).toThrow(/not found/);
    expect(when({ type: 'RestoreSpace', spaceId: 's1' }, deleted).map((e) => e.type)).toEqual(['SpaceRestored']);
    expect(when({ type: 'RestoreSpace', spaceId: 's1' }, created())).toEqual([]);
  });

  it('given a space deleted more than 7 days ago, when restored, then it is gone', () => {
    const deleted = given([...when(create(), given([])), ...when({ type: 'DeleteSpace', spaceId: 's1' }, created())]);
    expect(() => when({ type: 'RestoreSpace', spaceId: 's1' }, deleted, new Date(now.getTime() + 8 * 86400_000))).toThrow(/not found/);
  });

  it('duplicates a space as "Copy of", with its settings and parent, recording the source and its revision', () => {
    const source = given([
      ...when(create({ parent: { collectionId: 'c1', organizationId: 'o1' }, title: 'A'.repeat(48) }), given([])),
      { type: 'SpaceRevisionChanged', data: { spaceId: 's1', revision: 'r9' } },
      { type: 'SpaceUpdated', data: { spaceId: 's1', changes: { editMode: 'locked', defaultLevel: 'read' }, at: now.toISOString() } },
    ]);
    const [createdEvent, grant] = when({ type: 'DuplicateSpace', spaceId: 's2', source, initialRevision: 'r10', creatorId: 'u2' }, given([]));
    expect(createdEvent.data).toMatchObject({
      spaceId: 's2',
      organizationId: 'o1',
      parent: 'c1',
      title: ('Copy of ' + 'A'.repeat(48)).slice(0, 50),
      editMode: 'locked',
      defaultLevel: 'read',
      initialRevision: 'r10',
      duplicatedFrom: 's1',
      duplicatedFromRevision: 'r9',
    });
    expect(grant.data).toMatchObject({ spaceId: 's2', userId: 'u2', role: 'admin' });
  });

  it('sets, changes and removes explicit grants, skipping what is already so', () => {
    const state = created();
    const events = when(
      {
        type: 'SetSpaceUserPermissions',
        spaceId: 's1',
        grants: [
          { userId: 'u1', role: 'admin' },
          { userId: 'u2', role: 'read' },
          { userId: 'u2', role: 'edit' },
          { userId: 'u3', role: null },
        ],
      },
      state,
    );
    expect(events.map((e) => [e.type, (e.data as any).userId, (e.data as any).role])).toEqual([['SpaceUserPermissionSet', 'u2', 'edit']]);
    const removed = when({ type: 'SetSpaceUserPermissions', spaceId: 's1', grants: [{ userId: 'u1', role: null }] }, state);
    expect(removed.map((e) => e.type)).toEqual(['SpaceUserPermissionRemoved']);
    expect(given([...when(create(), given([])), ...removed]).grants).toEqual({});
  });
});
