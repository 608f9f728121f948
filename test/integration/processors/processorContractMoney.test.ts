import type { AuthorizeRequest, FollowUpRequest, FollowUpResult, LookupStatus } from '../../../src/processors/types';
import { isOutcomeUnknown } from '../../../src/processors/declineCodes';
import { ProcessorTechnicalError } from '../../../src/processors/types';
import { until } from '../../helpers/until';
import { processorKits } from './kits';
import { authorizeRequest } from './kits/requests';
import type { KitAccount } from './kits/types';

/**
 * The processor contract, part 2: capture, void, refunds, lookup and reversal by idempotency key,
 * for every registered kit (kits/index.ts) against its simulator over real HTTP.
 *
 * A processor with `capabilities.asyncModifications` (Adyen) accepts capture, void and refund as
 * `pending` and tells their outcome later (by webhook): what depends on the payment's state (a
 * second capture, a refund above the capture) is accepted as pending too and refused only then.
 * For those the suite asserts `pending` and that the money did not move at the processor; a
 * refusal of the request itself (an unknown reference, a zero amount) is answered at once by all.
 */
// Long enough that a loaded 2-core machine still answers a plain request in time; slow cards hold twice this.
const engineTimeoutMs = 1_000;
const holdMs = engineTimeoutMs * 2;

describe.each(processorKits.map((kit) => [kit.type, kit] as const))('processor contract, money: %s', (_type, kit) => {
  let account: KitAccount;
  beforeAll(() => kit.start());
  afterAll(() => kit.stop());
  beforeEach(async () => {
    account = await kit.account({ timeoutMs: engineTimeoutMs, holdMs });
  });
  afterEach(() => {
    expect(kit.problems?.() ?? []).toEqual([]);
  });
  const isAsync = () => account.adapter.capabilities.asyncModifications;

  /** Done at once (`succeeded`), or accepted and confirmed later (`pending`) per the capabilities. */
  function expectAccepted(result: FollowUpResult): void {
    if (isAsync()) expect(result).toEqual({ outcome: 'pending', processorReference: expect.any(String) });
    else expect(result).toMatchObject({ outcome: 'succeeded' });
  }

  /** A follow-up the payment's state forbids: refused at once, or (async) accepted and refused later; no money moves. */
  async function expectRefusedByState(
    paymentId: string,
    call: () => Promise<FollowUpResult>,
    refusal: { code?: string; category?: string } = {},
  ): Promise<void> {
    const before = await account.netCharged(paymentId);
    const result = await call();
    if (isAsync()) expect(result).toEqual({ outcome: 'pending', processorReference: expect.any(String) });
    else expect(result).toMatchObject({ outcome: 'failed', ...refusal });
    expect(await account.netCharged(paymentId)).toBe(before);
  }

  /**
   * What lookup reports after a follow-up. A processor that confirms follow-ups by webhook answers
   * for the authorization only (Adyen has no read of a payment's later state): `authorized`.
   */
  const statusAfter = (status: LookupStatus): LookupStatus => (isAsync() ? 'authorized' : status);

  const request = (number: string, overrides: Partial<AuthorizeRequest> = {}): AuthorizeRequest =>
    authorizeRequest(account.credentials, number, overrides);

  /**
   * Waits until the call under the key has ended at the processor (a held card: the simulator's
   * timed hold is the subject): lookup answers neither pending nor "cannot tell yet".
   */
  const untilDecided = (call: AuthorizeRequest) =>
    until(async () => {
      const found = await account.adapter
        .lookup({ idempotencyKey: call.idempotencyKey, credentials: account.credentials })
        .catch(() => undefined);
      return found && !(found.outcome === 'found' && found.status === 'pending') ? found : undefined;
    }, holdMs * 10);

  async function approved(call: AuthorizeRequest) {
    const result = await account.adapter.authorize(call);
    if (result.outcome !== 'approved') throw new Error(`expected approval, got ${JSON.stringify(result)}`);
    return result.processorReference;
  }

  const followUp = (reference: string, key: string, amount: number): FollowUpRequest => ({
    idempotencyKey: key,
    processorReference: reference,
    amount,
    currency: 'EUR',
    credentials: account.credentials,
  });

  it('captures an auth (partially when it can), once; a void after the capture is refused', async () => {
    const { partialCapture } = account.adapter.capabilities;
    const call = request(kit.cards.approve, { capture: false, amount: 5000 });
    const reference = await approved(call);
    const amount = partialCapture ? 4000 : 5000;
    const capture = followUp(reference, `${reference}:capture`, amount);
    const captured = await account.adapter.capture(capture);
    expectAccepted(captured);
    // The same key replays (a pending answer is the processor's stored one); another capture is refused.
    const replayed = await account.adapter.capture(capture);
    if (isAsync()) expect(replayed).toEqual(captured);
    else expect(replayed).toMatchObject({ outcome: 'succeeded' });
    await expectRefusedByState(
      call.paymentId,
      () => account.adapter.capture(followUp(reference, `${reference}:capture2`, amount)),
      { code: 'already_captured', category: 'hard_decline' },
    );
    await expectRefusedByState(
      call.paymentId,
      () => account.adapter.void(followUp(reference, `${reference}:void`, 5000)),
      {
        code: 'already_captured',
      },
    );
  });

  it('refuses a capture above the authorized amount', async () => {
    const call = request(kit.cards.approve, { capture: false, amount: 1000 });
    const reference = await approved(call);
    await expectRefusedByState(
      call.paymentId,
      () => account.adapter.capture(followUp(reference, `${reference}:capture`, 1001)),
      { code: 'amount_exceeds_authorization', category: 'hard_decline' },
    );
  });

  it('voids an auth once: a capture or a refund after it is refused, nothing stays held', async () => {
    const call = request(kit.cards.approveOther, { capture: false });
    const reference = await approved(call);
    const voided = await account.adapter.void(followUp(reference, `${reference}:void`, 1999));
    if (isAsync()) expectAccepted(voided);
    else expect(voided).toEqual({ outcome: 'succeeded', processorReference: reference });
    expect(await account.netCharged(call.paymentId)).toBe(0);
    await expectRefusedByState(
      call.paymentId,
      () => account.adapter.capture(followUp(reference, `${reference}:capture`, 1999)),
      { code: 'already_voided' },
    );
    await expectRefusedByState(call.paymentId, () =>
      account.adapter.refund(followUp(reference, `${reference}:refund`, 1999)),
    );
  });

  it('refunds in parts per its capabilities, never above the capture; a replayed refund applies once', async () => {
    const { partialRefunds, multipleRefunds } = account.adapter.capabilities;
    const call = request(kit.cards.approve, { amount: 4000 });
    const reference = await approved(call);
    const first = followUp(reference, `${reference}:r1`, partialRefunds ? 2500 : 4000);
    const refunded = await account.adapter.refund(first);
    expectAccepted(refunded);
    const replayedRefund = await account.adapter.refund(first);
    if (isAsync()) expect(replayedRefund).toEqual(refunded);
    else expect(replayedRefund).toMatchObject({ outcome: 'succeeded' });
    expect(await account.netCharged(call.paymentId)).toBe(partialRefunds ? 1500 : 0);
    if (partialRefunds && multipleRefunds) {
      await expectRefusedByState(
        call.paymentId,
        () => account.adapter.refund(followUp(reference, `${reference}:r2`, 1501)),
        { code: 'refund_exceeds_capture', category: 'hard_decline' },
      );
      expectAccepted(await account.adapter.refund(followUp(reference, `${reference}:r3`, 1500)));
      expect(await account.netCharged(call.paymentId)).toBe(0);
    }
    await expectRefusedByState(
      call.paymentId,
      () => account.adapter.refund(followUp(reference, `${reference}:r4`, 1)),
      { code: 'refund_exceeds_capture' },
    );
    expect(await account.adapter.refund(followUp(reference, `${reference}:r5`, 0))).toMatchObject({
      outcome: 'failed',
      code: 'invalid_amount',
    });
  });

  it('answers a follow-up on an unknown reference as a failure', async () => {
    const unknown = (key: string) => followUp('acq_unknown_reference', key, 1);
    for (const result of [await account.adapter.capture(unknown('c')), await account.adapter.refund(unknown('r'))])
      expect(result).toMatchObject({ outcome: 'failed', code: 'transaction_not_found' });
  });

  it('looks up what stands under a key or a reference', async () => {
    const lookup = (call: AuthorizeRequest, reference?: string) =>
      account.adapter.lookup({
        idempotencyKey: call.idempotencyKey,
        credentials: account.credentials,
        ...(reference ? { processorReference: reference } : {}),
      });
    const purchase = request(kit.cards.approve);
    const reference = await approved(purchase);
    const found = { outcome: 'found', processorReference: reference, amount: 1999 };
    expect(await lookup(purchase)).toEqual({ ...found, status: statusAfter('captured') });
    expect(await lookup(purchase, reference)).toEqual({ ...found, status: statusAfter('captured') });
    await account.adapter.refund(followUp(reference, `${reference}:refund`, 1999));
    expect(await lookup(purchase)).toMatchObject({ status: statusAfter('refunded') });

    const auth = request(kit.cards.approve, { capture: false, amount: 800 });
    const authReference = await approved(auth);
    expect(await lookup(auth)).toEqual({
      ...found,
      processorReference: authReference,
      amount: 800,
      status: 'authorized',
    });
    await account.adapter.void(followUp(authReference, `${authReference}:void`, 800));
    expect(await lookup(auth)).toMatchObject({ status: statusAfter('voided') });

    const [declinedCard] = kit.cards.declines[0]!;
    const declined = request(declinedCard);
    await account.adapter.authorize(declined);
    expect(await lookup(declined)).toMatchObject({ outcome: 'found', status: 'declined' });
  });

  it('a key found empty stays empty: an authorization under it afterwards never charges', async () => {
    const call = request(kit.cards.approve);
    expect(
      await account.adapter.lookup({ idempotencyKey: call.idempotencyKey, credentials: account.credentials }),
    ).toEqual({ outcome: 'not_found' });
    const late = await account.adapter.authorize(call).catch((error: unknown) => error);
    expect(late).not.toMatchObject({ outcome: 'approved' });
    expect(await account.netCharged(call.paymentId)).toBe(0);
  });

  it('never answers not_found while an authorization under the key is still being processed', async () => {
    const call = request(kit.cards.hold);
    await expect(account.adapter.authorize(call)).rejects.toMatchObject({ code: 'timeout' });
    const during = await account.adapter
      .lookup({ idempotencyKey: call.idempotencyKey, credentials: account.credentials })
      .catch((error: unknown) => error);
    // Either "pending" or "cannot tell yet" (a technical error: ask again); never "nothing there".
    if (during instanceof Error) expect(during).toMatchObject({ name: 'ProcessorTechnicalError' });
    else expect(during).toMatchObject({ outcome: 'found', status: 'pending' });
    expect(await untilDecided(call)).toMatchObject({ outcome: 'found', status: statusAfter('captured'), amount: 1999 });
  });

  const reversal = (call: AuthorizeRequest, key = `${call.idempotencyKey}:reversal`) => ({
    idempotencyKey: key,
    originalIdempotencyKey: call.idempotencyKey,
    amount: call.amount,
    currency: call.currency,
    credentials: account.credentials,
  });

  it.each([
    ['a purchase', true],
    ['an auth', false],
  ])(
    'reverses %s by its key; a replayed reversal answers the same, another finds nothing left',
    async (_n, capture) => {
      const call = request(kit.cards.approve, { capture });
      const reference = await approved(call);
      const reversed = await account.adapter.reverseByIdempotencyKey(reversal(call));
      expect(reversed).toEqual({ outcome: 'reversed', processorReference: reference, amount: 1999 });
      expect(await account.adapter.reverseByIdempotencyKey(reversal(call))).toEqual(reversed);
      expect(await account.netCharged(call.paymentId)).toBe(0);
      const again = await account.adapter.reverseByIdempotencyKey(reversal(call, `${call.idempotencyKey}:again`));
      // Async: accepted for the authorization's amount; the confirmation says nothing was left.
      if (isAsync()) expect(again).toMatchObject({ outcome: 'reversed', processorReference: reference });
      else expect(again).toEqual({ ...reversed, amount: 0 });
      expect(await account.netCharged(call.paymentId)).toBe(0);
    },
  );

  it('a reversal of a key never seen finds nothing, and an authorization under it afterwards never charges', async () => {
    const call = request(kit.cards.approve);
    expect(await account.adapter.reverseByIdempotencyKey(reversal(call))).toEqual({ outcome: 'nothing_to_reverse' });
    const late = await account.adapter.authorize(call).catch((error: unknown) => error);
    expect(late).not.toMatchObject({ outcome: 'approved' });
    expect(await account.netCharged(call.paymentId)).toBe(0);
  });

  it('a reversal while the authorization is held leaves nothing charged in the end', async () => {
    const call = request(kit.cards.hold);
    await expect(account.adapter.authorize(call)).rejects.toMatchObject({ code: 'timeout' });
    // Answered at once (nothing stands, the held call will not charge) or "cannot tell yet": asked again later.
    const first = await account.adapter.reverseByIdempotencyKey(reversal(call)).catch((error: unknown) => error);
    if (first instanceof Error) {
      expect(first).toMatchObject({ name: 'ProcessorTechnicalError' });
      // As the engine does: ask again under the same key until the processor can tell.
      const later = await until(() => account.adapter.reverseByIdempotencyKey(reversal(call)).catch(() => undefined));
      expect(later).toMatchObject({ outcome: 'reversed' });
    } else {
      expect(first).toEqual({ outcome: 'nothing_to_reverse' });
    }
    // The held call has ended (lookup no longer pending) before "nothing charged" is read.
    await untilDecided(call);
    expect(await account.netCharged(call.paymentId)).toBe(0);
  });

  it('answers 5xx after charging as outcome unknown; a retry never charges twice; lookup finds the charge, a reversal by key undoes it', async () => {
    const call = request(kit.cards.errorAfterCharge);
    const error = await account.adapter.authorize(call).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProcessorTechnicalError);
    expect(isOutcomeUnknown((error as ProcessorTechnicalError).code)).toBe(true);
    expect(await account.netCharged(call.paymentId)).toBe(1999);
    // The engine retries under the same key: it gets the stored answer (the same 5xx, or the approval), never a second charge.
    const retried = await account.adapter.authorize(call).catch((e: unknown) => e);
    if (retried instanceof ProcessorTechnicalError) expect(isOutcomeUnknown(retried.code)).toBe(true);
    else expect(retried).toMatchObject({ outcome: 'approved' });
    expect(await account.netCharged(call.paymentId)).toBe(1999);
    // What the engine then does for an attempt whose outcome stays unknown: look it up, reverse it by key.
    expect(
      await account.adapter.lookup({ idempotencyKey: call.idempotencyKey, credentials: account.credentials }),
    ).toMatchObject({ outcome: 'found', status: statusAfter('captured'), amount: 1999 });
    expect(await account.adapter.reverseByIdempotencyKey(reversal(call))).toMatchObject({
      outcome: 'reversed',
      amount: 1999,
    });
    expect(await account.netCharged(call.paymentId)).toBe(0);
  });

  it('a reversal during an outage throws technically (the engine cannot count it as done)', async () => {
    const call = request(kit.cards.approve);
    await approved(call);
    await account.outage(true);
    try {
      await expect(account.adapter.reverseByIdempotencyKey(reversal(call))).rejects.toMatchObject({
        name: 'ProcessorTechnicalError',
        code: 'processor_unavailable',
      });
      await expect(
        account.adapter.lookup({ idempotencyKey: call.idempotencyKey, credentials: account.credentials }),
      ).rejects.toMatchObject({ code: 'processor_unavailable' });
    } finally {
      await account.outage(false);
    }
    expect(await account.netCharged(call.paymentId)).toBe(1999);
  });
});
