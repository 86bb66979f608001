import { decideIntegration, PublishIntegration } from './integration.decide';
import { IntegrationDefinition, IntegrationEvent } from './integration.events';
import { integrationAggregate } from './integration.state';

const now = new Date('2026-01-01T00:00:00Z');
const given = (events: IntegrationEvent[]) => events.reduce(integrationAggregate.evolve, integrationAggregate.initialState());
const definition: IntegrationDefinition = {
  runtime: 'v1',
  title: 'Acme',
  description: 'Does things',
  visibility: 'public',
  target: 'all',
  scopes: ['space:content:read'],
  categories: [],
  externalLinks: [],
  script: 'export default {}',
  previewImages: [],
};
const publish = (organizationId = 'o1'): PublishIntegration => ({ type: 'PublishIntegration', name: 'acme', organizationId, definition, publisherId: 'u1' });

describe('integration', () => {
  it('given nothing, when published, then it is version 1', () => {
    const events = decideIntegration(publish(), given([]), { now });
    expect(events).toEqual([expect.objectContaining({ type: 'IntegrationPublished', data: expect.objectContaining({ version: 1, organizationId: 'o1' }) })]);
  });

  it('given sealed secrets, when a new version sends none, then they carry over; null clears them; not across an unpublish', () => {
    const sealed = { alg: 'aes-256-gcm', kid: 'k', iv: 'i', tag: 't', data: 'd' } as any;
    const first = decideIntegration({ ...publish(), secrets: sealed }, given([]), { now });
    const kept = decideIntegration(publish(), given(first), { now });
    expect((kept[0].data as any).secrets).toEqual(sealed);
    const cleared = decideIntegration({ ...publish(), secrets: null }, given([...first, ...kept]), { now });
    expect((cleared[0].data as any).secrets).toBeUndefined();
    expect((decideIntegration(publish(), given([...first, ...kept, ...cleared]), { now })[0].data as any).secrets).toBeUndefined();
    const gone = decideIntegration({ type: 'UnpublishIntegration', name: 'acme', actorId: 'u1' }, given(first), { now });
    expect((decideIntegration(publish(), given([...first, ...gone]), { now })[0].data as any).secrets).toBeUndefined();
  });

  it('given a published integration, when published again, then its version goes up', () => {
    const first = decideIntegration(publish(), given([]), { now });
    const second = decideIntegration(publish(), given(first), { now });
    expect((second[0].data as any).version).toBe(2);
  });

  it('given a name published by one organization, when another publishes it, then it is refused', () => {
    const first = decideIntegration(publish('o1'), given([]), { now });
    expect(() => decideIntegration(publish('o2'), given(first), { now })).toThrow(/already used by another organization/);
  });

  it('given an unpublished integration, when published again, then the version keeps counting and the name is free', () => {
    const history = [
      ...decideIntegration(publish('o1'), given([]), { now }),
      { type: 'IntegrationUnpublished', data: { name: 'acme', organizationId: 'o1', unpublishedBy: 'u1', at: now.toISOString() } } as IntegrationEvent,
    ];
    const again = decideIntegration(publish('o2'), given(history), { now });
    expect(again[0].data).toMatchObject({ version: 2, organizationId: 'o2' });
  });

  it('given nothing, when unpublished, then nothing happens (204)', () => {
    expect(decideIntegration({ type: 'UnpublishIntegration', name: 'acme', actorId: 'u1' }, given([]), { now })).toEqual([]);
  });

  it('refuses a name outside the pattern', () => {
    expect(() => decideIntegration({ ...publish(), name: 'a b' }, given([]), { now })).toThrow(/Invalid integration name/);
  });
});
