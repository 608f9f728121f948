/**
 * TEMPORARY COPY of the processor contract of issue 14 (/work/notes/contract.md), declared here only
 * so this folder compiles before src/processors/types.ts carries it. When it lands, delete this file
 * and import these names from '../types' instead (every import of './contract' in this folder).
 * Nothing here may differ from the contract.
 */
import type { z } from 'zod';
import type { DeclineCode } from '../declineCodes';
import type {
  AuthorizeRequest,
  AuthorizeResult,
  FollowUpRequest,
  FollowUpResult as SucceededOrFailedFollowUp,
  ReversalRequest,
  ReversalResult,
} from '../types';

export interface ProcessorCapabilities {
  currencies: readonly string[] | 'any';
  captureModes: readonly ('automatic' | 'manual')[];
  partialCapture: boolean;
  partialRefunds: boolean;
  multipleRefunds: boolean;
  void: boolean;
  externalThreeDs: boolean;
  hostedThreeDs: boolean;
  networkTokens: boolean;
  asyncModifications: boolean;
}

export interface AdapterDeps {
  sandboxUrl: string;
  timeoutMs: number;
}

export interface LookupRequest {
  idempotencyKey: string;
  processorReference?: string;
  credentials: Record<string, string>;
}

export type LookupResult =
  | { outcome: 'not_found' }
  | {
      outcome: 'found';
      processorReference: string;
      status: 'authorized' | 'captured' | 'declined' | 'voided' | 'refunded' | 'pending';
      amount: number;
    };

export type FollowUpResult = SucceededOrFailedFollowUp | { outcome: 'pending'; processorReference: string };

export interface ProcessorAdapter {
  readonly type: string;
  readonly capabilities: ProcessorCapabilities;
  authorize(request: AuthorizeRequest): Promise<AuthorizeResult>;
  capture(request: FollowUpRequest): Promise<FollowUpResult>;
  void(request: FollowUpRequest): Promise<FollowUpResult>;
  refund(request: FollowUpRequest): Promise<FollowUpResult>;
  reverseByIdempotencyKey(request: ReversalRequest): Promise<ReversalResult>;
  lookup(request: LookupRequest): Promise<LookupResult>;
}

export interface ProcessorDefinition {
  type: string;
  capabilities: ProcessorCapabilities;
  credentialsSchema: z.ZodType<Record<string, string>>;
  classify(vendorCode: string): DeclineCode;
  createAdapter(deps: AdapterDeps): ProcessorAdapter;
}
