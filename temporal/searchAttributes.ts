import { defineSearchAttributeKey } from '@temporalio/common';

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
export const searchAttributeFlags: string[] = Object.values(searchAttributes).map(
  (key) => `${key.name}=Keyword`,
);
