/** What a merchant may change on an endpoint (undefined: left as is). */
export interface EndpointUpdate {
  url?: string;
  eventTypes?: string[];
  enabled?: boolean;
  description?: string | null;
}

/**
 * The columns an update writes. Enabling a disabled endpoint again clears its failure record (it
 * starts afresh); disabling an enabled one records that the merchant did it, and when.
 */
export function endpointChanges(existing: { enabled: boolean }, update: EndpointUpdate, now: Date) {
  const reenabled = update.enabled === true && !existing.enabled;
  return {
    url: update.url,
    eventTypes: update.eventTypes,
    description: update.description,
    enabled: update.enabled,
    ...(reenabled ? { failingSince: null, lastFailedAt: null, disabledReason: null, disabledAt: null } : {}),
    ...(update.enabled === false && existing.enabled
      ? { disabledReason: 'disabled by the merchant', disabledAt: now }
      : {}),
  };
}
