import { defineSearchAttributeKey, type SearchAttributePair } from '@temporalio/common';

/**
 * Custom search attributes, registered on the dev server at start-up (and by the operator on a
 * real cluster, see DEPLOY.md). Operators filter runs by these in the Web UI.
 */
export const searchAttributes = {
  StoreId: defineSearchAttributeKey('StoreId', 'KEYWORD'),
  AccountId: defineSearchAttributeKey('AccountId', 'KEYWORD'),
  CustomerId: defineSearchAttributeKey('CustomerId', 'KEYWORD'),
  PaymentStatus: defineSearchAttributeKey('PaymentStatus', 'KEYWORD'),
  EventId: defineSearchAttributeKey('EventId', 'KEYWORD'),
} as const;

/** `name=Type` pairs in the form `temporal server start-dev --search-attribute` takes. */
export const searchAttributeFlags: string[] = Object.values(searchAttributes).map((key) => `${key.name}=Keyword`);

/** Whose business a run is: the ids operators search runs by (those left out are not set). */
export interface RunOwner {
  accountId: string;
  storeId?: string | null;
  customerId?: string | null;
  /** Payment runs only: their first PaymentStatus (the workflow upserts it as the payment moves on). */
  paymentStatus?: string;
  /** Webhook deliveries only: the event delivered. */
  eventId?: string;
}

/** The search attributes a run starts with, written once for clients and workflows alike (this file is workflow-safe). */
export function searchAttributesFor(owner: RunOwner): SearchAttributePair[] {
  const pairs: SearchAttributePair[] = [{ key: searchAttributes.AccountId, value: owner.accountId }];
  if (owner.storeId) pairs.push({ key: searchAttributes.StoreId, value: owner.storeId });
  if (owner.customerId) pairs.push({ key: searchAttributes.CustomerId, value: owner.customerId });
  if (owner.paymentStatus) pairs.push({ key: searchAttributes.PaymentStatus, value: owner.paymentStatus });
  if (owner.eventId) pairs.push({ key: searchAttributes.EventId, value: owner.eventId });
  return pairs;
}
