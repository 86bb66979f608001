import { decideSite, SiteCommand } from './site.decide';
import { SiteEvent } from './site.events';
import { siteAggregate, SiteState } from './site.state';

const now = new Date('2026-01-01T00:00:00Z');
const given = (events: SiteEvent[]) => events.reduce(siteAggregate.evolve, siteAggregate.initialState());
const when = (command: SiteCommand, state: SiteState) => decideSite(command, state, { now });
/** The state after each command is decided on the state the previous ones left. */
const build = (...commands: SiteCommand[]) => given(commands.reduce<SiteEvent[]>((events, c) => [...events, ...when(c, given(events))], []));
const space = (spaceId: string, title = 'Guide', organizationId = 'o1') => ({ spaceId, organizationId, title });
const create: SiteCommand = { type: 'CreateSite', siteId: 'Site1', organizationId: 'o1', title: 'Docs', creatorId: 'u1' };

describe('site', () => {
  it('given nothing, when created, then it is an unpublished public site whose basename is its id', () => {
    const state = build(create);
    expect(state).toMatchObject({ exists: true, title: 'Docs', basename: 'site1', visibility: 'public', published: false, siteSpaces: [] });
    expect(state.customization).toMatchObject({ styling: { theme: 'clean' }, trademark: { enabled: false } });
    expect(() => when({ ...create, title: 'D' } as SiteCommand, given([]))).toThrow(/2 to 128/);
    expect(() => when({ ...create, basename: 'Not OK' } as SiteCommand, given([]))).toThrow(/basename/);
    expect(() => when(create, state)).toThrow(/already exists/);
  });

  it('publishes only with a site space, and publishing twice records nothing', () => {
    const state = build(create);
    expect(() => when({ type: 'PublishSite' }, state)).toThrow(/at least one site space/);
    const withSpace = build(create, { type: 'AddSiteSpace', siteSpaceId: 'ss1', space: space('sp1') }, { type: 'PublishSite' });
    expect(withSpace.published).toBe(true);
    expect(when({ type: 'PublishSite' }, withSpace)).toEqual([]);
    expect(when({ type: 'UnpublishSite' }, withSpace).map((e) => e.type)).toEqual(['SiteUnpublished']);
  });

  it('adds site spaces of its organization with unique paths, the first one the default', () => {
    const state = build(create, { type: 'AddSiteSpace', siteSpaceId: 'ss1', space: space('sp1', 'User Guide') }, { type: 'AddSiteSpace', siteSpaceId: 'ss2', space: space('sp2', 'User guide') });
    expect(state.siteSpaces.map((s) => [s.siteSpaceId, s.path])).toEqual([['ss1', 'user-guide'], ['ss2', 'user-guide-2']]);
    expect(state.defaultSiteSpaceId).toBe('ss1');
    expect(() => when({ type: 'AddSiteSpace', siteSpaceId: 'ss3', space: space('sp3', 'X', 'o2') }, state)).toThrow(/another organization/);
    expect(() => when({ type: 'AddSiteSpace', siteSpaceId: 'ss3', space: space('sp3'), path: 'user-guide' }, state)).toThrow(/path "user-guide"/);
    expect(() => when({ type: 'AddSiteSpace', siteSpaceId: 'ss3', space: space('sp3'), path: '/bad path' }, state)).toThrow(/path has/);
  });

  it('moves the default when asked or when the default site space is removed, and drops redirects to a removed one', () => {
    const state = build(
      create,
      { type: 'AddSiteSpace', siteSpaceId: 'ss1', space: space('sp1') },
      { type: 'AddSiteSpace', siteSpaceId: 'ss2', space: space('sp2') },
      { type: 'CreateSiteRedirect', redirectId: 'r1', source: '/old', destination: { kind: 'site-space', siteSpaceId: 'ss1' } },
      { type: 'UpdateSiteSpace', siteSpaceId: 'ss2', changes: { default: true, title: 'Second' } },
    );
    expect(state.defaultSiteSpaceId).toBe('ss2');
    expect(state.siteSpaces[1].title).toBe('Second');
    expect(() => when({ type: 'UpdateSiteSpace', siteSpaceId: 'ss2', changes: { default: false } }, state)).toThrow(/always has a default/);
    const events = when({ type: 'RemoveSiteSpace', siteSpaceId: 'ss1' }, state);
    expect(events.map((e) => e.type)).toEqual(['SiteSpaceRemoved', 'SiteRedirectDeleted']);
    const removedDefault = when({ type: 'RemoveSiteSpace', siteSpaceId: 'ss2' }, state);
    expect(removedDefault[1]).toMatchObject({ type: 'SiteDefaultSpaceSet', data: { siteSpaceId: 'ss1' } });
    expect(when({ type: 'RemoveSiteSpace', siteSpaceId: 'nope' }, state)).toEqual([]);
  });

  it('keeps the last site space of a published site', () => {
    const state = build(create, { type: 'AddSiteSpace', siteSpaceId: 'ss1', space: space('sp1') }, { type: 'PublishSite' });
    expect(() => when({ type: 'RemoveSiteSpace', siteSpaceId: 'ss1' }, state)).toThrow(/unpublish it first/);
  });

  it('merges customization updates into complete settings and records nothing when nothing changes', () => {
    const state = build(create);
    const [event] = when({ type: 'UpdateSiteCustomization', customization: { styling: { primaryColor: { light: '#FF0000', dark: '#00FF00' } }, title: 'Handbook' } }, state);
    expect(event.data).toMatchObject({ customization: { title: 'Handbook', styling: { theme: 'clean', primaryColor: { light: '#FF0000', dark: '#00FF00' } }, header: { links: [] } } });
    expect(when({ type: 'UpdateSiteCustomization', customization: { styling: { theme: 'clean' } } }, state)).toEqual([]);
  });

  it('creates, renames, deactivates and deletes share links', () => {
    const link: SiteCommand = { type: 'CreateSiteShareLink', shareLinkId: 'l1', name: 'Partners' };
    expect(build(create, link).shareLinks).toEqual({ l1: { name: 'Partners', active: true } });
    const state = build(create, link, { type: 'UpdateSiteShareLink', shareLinkId: 'l1', changes: { active: false } });
    expect(state.shareLinks.l1.active).toBe(false);
    expect(() => when({ type: 'UpdateSiteShareLink', shareLinkId: 'l9', changes: {} }, state)).toThrow(/not found/);
    expect(when({ type: 'DeleteSiteShareLink', shareLinkId: 'l1' }, state).map((e) => e.type)).toEqual(['SiteShareLinkDeleted']);
    expect(when({ type: 'DeleteSiteShareLink', shareLinkId: 'l9' }, state)).toEqual([]);
  });

  it('validates redirects: GitBook source paths, one redirect per source, destinations in the site', () => {
    const state = build(create, { type: 'AddSiteSpace', siteSpaceId: 'ss1', space: space('sp1') }, { type: 'CreateSiteRedirect', redirectId: 'r1', source: '/old/*', destination: { kind: 'external', url: 'https://example.com' } });
    expect(state.redirects.r1).toEqual({ source: '/old/*', destination: { kind: 'external', url: 'https://example.com' }, permanent: false, captureWildcard: false });
    expect(() => when({ type: 'CreateSiteRedirect', redirectId: 'r2', source: '/old/*', destination: { kind: 'site-space', siteSpaceId: 'ss1' } }, state)).toThrow(/already exists/);
    expect(() => when({ type: 'CreateSiteRedirect', redirectId: 'r2', source: 'old', destination: { kind: 'site-space', siteSpaceId: 'ss1' } }, state)).toThrow(/Invalid redirect source/);
    expect(() => when({ type: 'CreateSiteRedirect', redirectId: 'r2', source: '/a', destination: { kind: 'site-space', siteSpaceId: 'nope' } }, state)).toThrow(/does not have/);
    expect(when({ type: 'UpdateSiteRedirect', redirectId: 'r1', changes: { permanent: true } }, state)[0].data).toMatchObject({ changes: { permanent: true } });
  });

  it('given a deleted site, deleting again records nothing and everything else does not find it', () => {
    const state = build(create, { type: 'DeleteSite' });
    expect(state.deleted).toBe(true);
    expect(when({ type: 'DeleteSite' }, state)).toEqual([]);
    expect(() => when({ type: 'UpdateSite', changes: { title: 'Again' } }, state)).toThrow(/not found/);
  });
});
