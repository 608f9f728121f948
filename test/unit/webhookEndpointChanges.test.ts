import { endpointChanges } from '../../src/webhooks/endpointChanges';

const now = new Date('2030-01-01T00:00:00Z');

describe('webhook endpoint updates', () => {
  it('writes only what was given', () => {
    expect(endpointChanges({ enabled: true }, { description: 'orders' }, now)).toEqual({
      url: undefined,
      eventTypes: undefined,
      description: 'orders',
      enabled: undefined,
    });
  });

  it('enabling a disabled endpoint clears its failure record', () => {
    expect(endpointChanges({ enabled: false }, { enabled: true }, now)).toMatchObject({
      enabled: true,
      failingSince: null,
      lastFailedAt: null,
      disabledReason: null,
      disabledAt: null,
    });
  });

  it('disabling an enabled endpoint records that the merchant did it, and when', () => {
    expect(endpointChanges({ enabled: true }, { enabled: false }, now)).toMatchObject({
      enabled: false,
      disabledReason: 'disabled by the merchant',
      disabledAt: now,
    });
  });

  it('leaves the failure record alone when the state does not change', () => {
    for (const enabled of [true, false]) {
      const changes = endpointChanges({ enabled }, { enabled }, now);
      expect(Object.keys(changes).sort()).toEqual(['description', 'enabled', 'eventTypes', 'url']);
    }
  });
});
