import { collectionPermissions, decodeLevel, effectiveRole, encodeLevel, membershipRole, spacePermissions } from './content-access';

describe('effective role on a space or collection', () => {
  it('members get their organization role when every level inherits', () => {
    expect(effectiveRole({ organizationRole: 'edit', levels: ['inherit', 'inherit'], grants: [] })).toBe('edit');
    expect(effectiveRole({ organizationRole: 'read', levels: [], grants: [] })).toBe('read');
  });

  it('the nearest default level that does not inherit decides what members get', () => {
    // space inherits, its collection gives everyone comment, the outer collection says no access
    expect(effectiveRole({ organizationRole: 'read', levels: ['inherit', 'comment', null], grants: [] })).toBe('comment');
    expect(effectiveRole({ organizationRole: 'edit', levels: ['inherit', null, 'admin'], grants: [] })).toBeNull();
    expect(effectiveRole({ organizationRole: 'create', levels: ['read'], grants: [] })).toBe('read');
  });

  it('organization admins stay admin whatever the levels', () => {
    expect(effectiveRole({ organizationRole: 'admin', levels: [null], grants: [] })).toBe('admin');
  });

  it('explicit grants along the chain add up with the strongest winning', () => {
    expect(effectiveRole({ organizationRole: 'read', levels: [null], grants: ['comment', 'review', null] })).toBe('review');
    expect(effectiveRole({ organizationRole: 'edit', levels: ['inherit'], grants: ['read'] })).toBe('edit');
  });

  it('guests (not members) have only their grants; the instance admin is admin everywhere', () => {
    expect(effectiveRole({ organizationRole: null, levels: ['admin'], grants: [] })).toBeNull();
    expect(effectiveRole({ organizationRole: null, levels: ['inherit'], grants: ['edit'] })).toBe('edit');
    expect(effectiveRole({ instanceAdmin: true, organizationRole: null, levels: [null], grants: [] })).toBe('admin');
    expect(membershipRole(null, ['inherit'])).toBeNull();
  });

  it('maps roles to GitBook permission objects; a locked space takes no edits', () => {
    expect(spacePermissions('read', 'live')).toEqual({
      view: true, access: true, admin: false, viewInviteLinks: false, edit: false, triggerGitSync: false,
      comment: false, merge: false, review: false, installIntegration: false,
    });
    expect(spacePermissions('edit', 'live')).toMatchObject({ edit: true, comment: true, review: false, merge: false });
    expect(spacePermissions('review', 'live')).toMatchObject({ review: true, merge: true, admin: false });
    expect(spacePermissions('admin', 'locked')).toMatchObject({ admin: true, edit: false, merge: false, review: true });
    expect(spacePermissions(null, 'live').view).toBe(false);
    expect(collectionPermissions('create')).toEqual({ view: true, admin: false, viewInviteLinks: false, create: true });
    expect(collectionPermissions('admin')).toEqual({ view: true, admin: true, viewInviteLinks: true, create: true });
  });

  it('stores no-access as "none" and reads it back as null', () => {
    expect(decodeLevel(encodeLevel(null))).toBeNull();
    expect(decodeLevel(encodeLevel('inherit'))).toBe('inherit');
    expect(decodeLevel(encodeLevel('edit'))).toBe('edit');
  });
});
