import type { Db } from '../db/prisma';
import type { Scope } from '../commerce/scope';
import { findStoreOfScope } from '../commerce/storeOfScope';
import { newId } from '../domain/ids';
import { conflict, notFound } from '../errors';
import { createSubscription, findRecurringPrice, type SubscriptionServiceDeps } from './service';

export interface NewMembershipProgram {
  storeId: string;
  name: string;
  optionId: string;
  creditsPerRenewal: number;
}

/** Creates a membership program billed by a recurring price of the store; a price belongs to one program only. */
export async function createMembershipProgram(db: Db, scope: Scope, input: NewMembershipProgram) {
  const store = await findStoreOfScope(db, scope, input.storeId);
  await findRecurringPrice(db, scope, input.optionId, store.id);
  // A price names one program: renewals and switches find the member's program by it.
  const taken = await db.membershipProgram.findFirst({
    where: { ...scope, optionId: input.optionId },
    select: { id: true },
  });
  if (taken)
    throw conflict(
      `Program ${taken.id} already bills this price; a price can belong to one program only`,
      'PROGRAM_OPTION_TAKEN',
    );
  return db.membershipProgram.create({
    data: {
      id: newId('membershipProgram'),
      ...scope,
      storeId: store.id,
      name: input.name,
      optionId: input.optionId,
      creditsPerRenewal: input.creditsPerRenewal,
    },
  });
}

export interface NewMembership {
  programId: string;
  customerId: string;
  paymentMethodId: string;
  trialDays: number;
}

/** Enrols a customer in a program: a subscription of the program's price with its membership. */
export async function enrolMember(deps: SubscriptionServiceDeps, scope: Scope, input: NewMembership) {
  const program = await deps.db.membershipProgram.findFirst({ where: { id: input.programId, ...scope } });
  if (!program) throw notFound('Membership program');
  const { membership } = await createSubscription(deps, scope, {
    storeId: program.storeId,
    customerId: input.customerId,
    priceId: program.optionId,
    paymentMethodId: input.paymentMethodId,
    quantity: 1,
    trialDays: input.trialDays,
    membershipProgramId: program.id,
  });
  return membership!;
}
