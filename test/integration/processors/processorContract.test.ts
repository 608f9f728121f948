import { closedPort } from '../../helpers/closedPort';
import { until } from '../../helpers/until';
import { isOutcomeUnknown } from '../../../src/processors/declineCodes';
import { processorDefinition } from '../../../src/processors/registry';
import { ProcessorTechnicalError, type AuthorizeRequest, type ThreeDsValues } from '../../../src/processors/types';
import { processorKits } from './kits';
import { authorizeRequest } from './kits/requests';
import type { KitAccount } from './kits/types';

/**
 * The processor contract, part 1 (authorization): every registered kit (kits/index.ts), each
 * adapter against its vendor's simulator over real HTTP. Part 2 (money after authorization,
 * lookup, reversal) is processorContractMoney.test.ts.
 */
// Long enough that a loaded 2-core machine still answers a plain request in time; slow cards hold twice this.
const engineTimeoutMs = 1_000;
const holdMs = engineTimeoutMs * 2;

const threeDs: ThreeDsValues = {
  eci: '05',
  authenticationValue: 'AAABBZEEBgAAAAAAAAAAAAAAAAA=',
  transStatus: 'Y',
  dsTransID: 'f25084f0-5b16-4c0a-ae5d-b24808a95e4b',
  acsTransID: '8a880dc0-d2d2-4067-bcb1-b08d1690b26e',
  threeDSServerTransID: 'e4a2c7b6-9c1d-4b2a-8f3e-1a2b3c4d5e6f',
  messageVersion: '2.2.0',
  type: 'customer',
};

describe.each(processorKits.map((kit) => [kit.type, kit] as const))('processor contract: %s', (type, kit) => {
  let account: KitAccount;
  beforeAll(() => kit.start());
  afterAll(() => kit.stop());
  beforeEach(async () => {
    account = await kit.account({ timeoutMs: engineTimeoutMs, holdMs });
  });
  afterEach(() => {
    expect(kit.problems?.() ?? []).toEqual([]);
  });

  const request = (number: string, overrides: Partial<AuthorizeRequest> = {}): AuthorizeRequest =>
    authorizeRequest(account.credentials, number, overrides);

  it('declares its type and capabilities as static data, the same the adapter carries', () => {
    const definition = processorDefinition(type);
    expect(account.adapter.type).toBe(type);
    expect(account.adapter.capabilities).toEqual(definition.capabilities);
    expect(definition.capabilities.captureModes.length).toBeGreaterThan(0);
    expect(definition.capabilities.externalThreeDs && definition.capabilities.hostedThreeDs).toBe(false);
    expect(definition.credentialsSchema.safeParse(account.credentials).success).toBe(true);
    expect(definition.credentialsSchema.safeParse({}).success).toBe(false);
  });

  it('approves a purchase (captured) and an auth (held) with a reference each', async () => {
    const purchase = request(kit.cards.approve);
    expect(await account.adapter.authorize(purchase)).toEqual(
      expect.objectContaining({ outcome: 'approved', captured: true, processorReference: expect.any(String) }),
    );
    const auth = request(kit.cards.approveOther, { capture: false, amount: 700 });
    expect(await account.adapter.authorize(auth)).toMatchObject({ outcome: 'approved', captured: false });
    expect(await account.netCharged(purchase.paymentId)).toBe(1999);
    expect(await account.netCharged(auth.paymentId)).toBe(700);
  });

  it('replays the same idempotency key with the same answer and one charge; another request under it is refused', async () => {
    const call = request(kit.cards.approve);
    const first = await account.adapter.authorize(call);
    expect(await account.adapter.authorize(call)).toEqual(first);
    expect(await account.netCharged(call.paymentId)).toBe(1999);
    await expect(account.adapter.authorize({ ...call, amount: 5 })).rejects.toMatchObject({
      name: 'ProcessorTechnicalError',
      code: 'idempotency_conflict',
    });
    expect(await account.netCharged(call.paymentId)).toBe(1999);
  });

  it.each(kit.cards.declines)('answers %s with a decline as data: %s (%s)', async (number, code, category) => {
    const call = request(number);
    const result = await account.adapter.authorize(call);
    expect(result).toMatchObject({ outcome: 'declined', code, category });
    expect(await account.netCharged(call.paymentId)).toBe(0);
  });

  it('asks for 3DS on its 3DS card without values', async () => {
    expect(await account.adapter.authorize(request(kit.cards.requires3ds))).toMatchObject({
      outcome: 'requires_3ds',
      code: 'authentication_required',
    });
  });

  it('handles external 3DS values according to its capabilities', async () => {
    const result = await account.adapter.authorize(request(kit.cards.requires3ds, { threeDs }));
    if (!account.adapter.capabilities.externalThreeDs) {
      // Hosted 3DS: external values are never forwarded, so the processor still asks for 3DS.
      expect(result).toMatchObject({ outcome: 'requires_3ds' });
      return;
    }
    expect(result).toMatchObject({ outcome: 'approved' });
    const failed = await account.adapter.authorize(
      request(kit.cards.approve, { threeDs: { ...threeDs, transStatus: 'N' } }),
    );
    expect(failed).toMatchObject({ outcome: 'declined', code: 'authentication_failed', category: 'hard_decline' });
    const missingDs = await account.adapter.authorize(
      request(kit.cards.approve, { threeDs: { ...threeDs, dsTransID: undefined } }),
    );
    expect(missingDs).toMatchObject({ outcome: 'declined', code: 'invalid_authentication_data' });
  });

  it('throws processor_unavailable during an outage, charges nothing, and works again after it', async () => {
    const call = request(kit.cards.approve);
    await account.outage(true);
    try {
      await expect(account.adapter.authorize(call)).rejects.toMatchObject({
        name: 'ProcessorTechnicalError',
        code: 'processor_unavailable',
      });
      expect(await account.netCharged(call.paymentId)).toBe(0);
    } finally {
      await account.outage(false);
    }
    expect(await account.adapter.authorize(call)).toMatchObject({ outcome: 'approved' });
  });

  it('throws invalid_credentials for rejected credentials and processor_unreachable for a closed endpoint', async () => {
    await expect(
      account.adapter.authorize(request(kit.cards.approve, { credentials: account.rejectedCredentials })),
    ).rejects.toMatchObject({ code: 'invalid_credentials' });
    await expect(account.adapter.authorize(request(kit.cards.approve, { credentials: {} }))).rejects.toMatchObject({
      code: 'invalid_credentials',
    });
    const closed = account.credentialsAt(`http://127.0.0.1:${await closedPort()}`);
    const refused = await account.adapter
      .authorize(request(kit.cards.approve, { credentials: closed }))
      .catch((e) => e);
    expect(refused).toBeInstanceOf(ProcessorTechnicalError);
    expect(refused).toMatchObject({ code: 'processor_unreachable' });
  });

  it('times out on its hold card (outcome unknown); the call completes at the processor afterwards', async () => {
    const call = request(kit.cards.hold);
    const error = await account.adapter.authorize(call).catch((e) => e);
    expect(error).toMatchObject({ name: 'ProcessorTechnicalError', code: 'timeout' });
    expect(isOutcomeUnknown(error.code)).toBe(true);
    // Slowness is the subject here (the simulator's own timed hold): wait for the charge to land.
    await until(async () => ((await account.netCharged(call.paymentId)) === 1999 ? true : undefined), holdMs * 10);
  });
});
