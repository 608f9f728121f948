import type { NumberedPage } from '../db/pageQuery';
import type { Mode } from '../domain/apiKeys';

/** The partner behind a partner key, and the mode of that key (a test key sees and acts in test mode only). */
export interface PartnerCaller {
  partnerId: string;
  mode: Mode;
}

/** A page of a partner's list: 1-based page number and its size. */
export type PageRequest = NumberedPage;
