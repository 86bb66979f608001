import { CollectionCommand, decideCollection } from './collection.decide';
import { CollectionEvent } from './collection.events';
import { collectionAggregate, CollectionState } from './collection.state';

const now = new Date('2026-01-01T00:00:00Z');
const given = (events: CollectionEvent[]) => events.reduce(collectionAggregate.evolve, collectionAggregate.initialState());
const when = (command: CollectionCommand, state: CollectionState) => decideCollection(command, state, { now });
const create = (over = {}): CollectionCommand => ({ type: 'CreateCollection', collectionId: 'c1', organizationId: 'o1', title: 'Team', creatorId: 'u1', ...over });

describe('collection', () => {
  it('given nothing, when created, then the creator administers it', () => {
    const events = when(create(), given([]));
    expect(events.map((e) => e.type)).toEqual(['CollectionCreated', 'CollectionUserPermissionSet']);
    expect(given(events)).toMatchObject({ exists: true, title: 'Team', defaultLevel: 'inherit', grants: { u1: 'admin' } });
  });

  it('refuses parents of another organization, nesting too deep and long titles', () => {
    expect(() => when(create({ parent: { collectionId: 'p', organizationId: 'o2', depth: 1 } }), given([]))).toThrow(/another organization/);
    expect(() => when(create({ parent: { collectionId: 'p', organizationId: 'o1', depth: 10 } }), given([]))).toThrow(/at most 10/);
    expect(() => when(create({ title: 'x'.repeat(51) }), given([]))).toThrow(/at most 50/);
    expect(when(create({ parent: { collectionId: 'p', organizationId: 'o1', depth: 9 } }), given([]))[0].data).toMatchObject({ parent: 'p' });
  });

  it('given a collection, when updated, then only changes are recorded', () => {
    const state = given(when(create(), given([])));
    expect(when({ type: 'UpdateCollection', collectionId: 'c1', changes: { title: 'Team' } }, state)).toEqual([]);
    const [e] = when({ type: 'UpdateCollection', collectionId: 'c1', changes: { title: 'Team', description: 'Docs', defaultLevel: null } }, state);
    expect(e.data).toMatchObject({ changes: { description: 'Docs', defaultLevel: null } });
    expect(() => when({ type: 'UpdateCollection', collectionId: 'c1', changes: { description: 'x'.repeat(101) } }, state)).toThrow(/at most 100/);
  });

  it('given no collection, when updated or shared, then it is not found', () => {
    expect(() => when({ type: 'UpdateCollection', collectionId: 'c1', changes: { title: 'x' } }, given([]))).toThrow(/not found/);
    expect(() => when({ type: 'SetCollectionUserPermissions', collectionId: 'c1', grants: [] }, given([]))).toThrow(/not found/);
  });

  it('sets and removes grants', () => {
    const state = given(when(create(), given([])));
    const events = when({ type: 'SetCollectionUserPermissions', collectionId: 'c1', grants: [{ userId: 'u2', role: 'comment' }, { userId: 'u1', role: null }, { userId: 'u9', role: null }] }, state);
    expect(events.map((e) => e.type)).toEqual(['CollectionUserPermissionSet', 'CollectionUserPermissionRemoved']);
    expect(given([...when(create(), given([])), ...events]).grants).toEqual({ u2: 'comment' });
  });
});
