import { call } from '../../helpers/harness';
import { usePartner } from '../../helpers/fixtures';
import { useHarness } from '../../helpers/useHarness';

interface PartnerKindOperation {
  method: string;
  path: string;
  hasBody: boolean;
  /** The path with well-formed ids that name nothing (a malformed path id is a 400 by design). */
  concretePath: string;
}

interface DocumentOperation {
  'x-required-partner-kind'?: string;
  requestBody?: unknown;
  parameters?: { in: string; name: string; schema?: { pattern?: string } }[];
}

/** Every operation the OpenAPI document marks `x-required-partner-kind: payfac`. */
function payfacOperations(document: { paths: Record<string, Record<string, DocumentOperation>> }) {
  return Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations)
      .filter(([, operation]) => operation['x-required-partner-kind'] === 'payfac')
      .map(([method, operation]): PartnerKindOperation => ({
        method: method.toUpperCase(),
        path,
        hasBody: operation.requestBody !== undefined,
        concretePath: path.replace(/\{([A-Za-z0-9_]+)\}/g, (_match, name: string) => {
          const pattern = operation.parameters?.find((p) => p.in === 'path' && p.name === name)?.schema?.pattern;
          const prefix = pattern && /^\^\(\?:([0-9A-Za-z]+)/.exec(pattern)?.[1];
          return `${prefix ?? name}_doesnotexist0`;
        }),
      })),
  );
}

/** A body no operation accepts: wrong types and an unknown field. */
const invalidBody = { accountId: 42, storeIds: 'not a list', mode: 'sideways', unexpected: true };

describe('payfac-only partner operations, found generically in the OpenAPI document', () => {
  const harness = useHarness();
  const payfac = usePartner(harness, { kind: 'payfac', mode: 'test' });
  const crmOnly = usePartner(harness, { kind: 'crm_only', mode: 'test' });
  let operations: PartnerKindOperation[];

  beforeAll(async () => {
    operations = payfacOperations((await call(harness, 'GET', '/openapi.json')).body);
  });

  it('marks creating processing accounts and minting processing keys', () => {
    expect(operations).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ method: 'POST', path: '/api/processing/v1/partner/tpas', hasBody: true }),
        expect.objectContaining({
          method: 'POST',
          path: '/api/processing/v1/partner/tpas/{tpaId}/keys',
          concretePath: '/api/processing/v1/partner/tpas/tpa_doesnotexist0/keys',
        }),
      ]),
    );
  });

  it('answers a CRM-only partner 403 payfac_required on each, whatever the body, before looking anything up', async () => {
    for (const { method, path, hasBody, concretePath } of operations) {
      for (const body of hasBody ? [invalidBody, {}, []] : [undefined]) {
        const answer = await call(harness, method, concretePath, { token: crmOnly.token, body });
        expect({ method, path, body, status: answer.status, code: answer.body?.code }).toEqual({
          method,
          path,
          body,
          status: 403,
          code: 'payfac_required',
        });
      }
    }
    expect(await harness.db.processingAccount.count({ where: { partnerId: crmOnly.partnerId } })).toBe(0);
  });

  it('lets a payfac partner past the check on each (it then validates as usual)', async () => {
    for (const { method, path, hasBody, concretePath } of operations) {
      const answer = await call(harness, method, concretePath, {
        token: payfac.token,
        body: hasBody ? invalidBody : undefined,
      });
      expect({ method, path, status: answer.status, code: answer.body?.code }).toEqual({
        method,
        path,
        status: 400,
        code: 'VALIDATION_ERROR',
      });
    }
  });
});
