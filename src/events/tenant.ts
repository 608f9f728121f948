/** The account + mode events and webhook endpoints are scoped by; anything else does not exist (not_found). */
export interface Tenant {
  accountId: string;
  mode: 'test' | 'live';
}
