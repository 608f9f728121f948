import type { ListDefinition, ListQuery, Page } from '../domain/listQuery';
import { readPage, scopedPageArgs } from '../db/pageQuery';
import type { Db, Prisma } from '../db/prisma';
import type { Customer } from '../generated/prisma/client';
import { newId } from '../domain/ids';
import { conflict, orNotFound } from '../errors';
import type { Scope } from './scope';
import { findStore } from './stores';

type Tx = Prisma.TransactionClient;

export interface CustomerDetails {
  email: string;
  firstName?: string | null;
  lastName?: string | null;
  phone?: string | null;
  externalRef?: string | null;
}

export const customerList: ListDefinition = {
  sortFields: { createdAt: 'createdAt', email: 'email', lastName: 'lastName', firstName: 'firstName', id: 'id' },
  defaultSort: { field: 'createdAt', direction: 'desc' },
  filters: {
    email: { kind: 'string', lowerCase: true },
    firstName: { kind: 'string' },
    lastName: { kind: 'string' },
    phone: { kind: 'string' },
    externalRef: { kind: 'string' },
    storeId: { kind: 'id', prefix: 'store' },
    createdAt: { kind: 'date' },
  },
};

/** E-mails are compared and stored lower-cased (a CHECK constraint on customers.email holds it). */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * Inserts a customer unless (account, mode, store, e-mail) already has one; returns the new id, or
 * null when another row holds the key. ON CONFLICT waits for a concurrent inserter of the same key
 * to commit, so of many concurrent callers exactly one inserts and the others then see its row.
 */
async function insertUnlessTaken(
  db: Db | Tx,
  scope: Scope,
  storeId: string | null,
  details: CustomerDetails,
): Promise<string | null> {
  const id = newId('customer');
  const inserted = await db.$queryRaw<{ id: string }[]>`
    INSERT INTO "customers" ("id", "account_id", "mode", "store_id", "email", "first_name", "last_name", "phone", "external_ref")
    VALUES (${id}, ${scope.accountId}, ${scope.mode}::"Mode", ${storeId}, ${normaliseEmail(details.email)},
            ${details.firstName ?? null}, ${details.lastName ?? null}, ${details.phone ?? null}, ${details.externalRef ?? null})
    ON CONFLICT ("account_id", "mode", "store_id", "email") DO NOTHING
    RETURNING "id"`;
  return inserted[0]?.id ?? null;
}

function findByKey(db: Db | Tx, scope: Scope, storeId: string | null, email: string) {
  return db.customer.findFirst({ where: { ...scope, storeId, email: normaliseEmail(email) } });
}

const emailTaken = (existingId: string) =>
  conflict(`A customer with this e-mail already exists in this store (${existingId})`, 'CUSTOMER_EMAIL_EXISTS');

/** A customer of the caller's account and mode, or not_found. */
export async function findCustomer(db: Db | Tx, scope: Scope, customerId: string): Promise<Customer> {
  return orNotFound(await db.customer.findFirst({ where: { id: customerId, ...scope } }), 'Customer');
}

/**
 * POST /customers: a new customer (of a store of the caller's, when one is named), or a conflict
 * (CUSTOMER_EMAIL_EXISTS) when that store already has the e-mail.
 */
export async function createCustomer(db: Db, scope: Scope, input: CustomerDetails & { storeId?: string | null }) {
  if (input.storeId) await findStore(db, scope, input.storeId);
  const storeId = input.storeId ?? null;
  const id = await insertUnlessTaken(db, scope, storeId, input);
  if (id) return db.customer.findUniqueOrThrow({ where: { id } });
  const existing = await findByKey(db, scope, storeId, input.email);
  throw emailTaken(existing?.id ?? 'unknown');
}

export async function listCustomers(db: Db, scope: Scope, query: ListQuery): Promise<Page<Customer>> {
  const args = scopedPageArgs<Prisma.CustomerFindManyArgs>(scope, query);
  return readPage(db.customer.findMany(args), db.customer.count({ where: args.where }));
}

/** Changes a customer's fields; moving to an e-mail another customer of its store holds is a conflict. */
export async function updateCustomer(db: Db, scope: Scope, customerId: string, data: Partial<CustomerDetails>) {
  const customer = await findCustomer(db, scope, customerId);
  try {
    return await db.customer.update({
      where: { id: customer.id },
      data: data.email === undefined ? data : { ...data, email: normaliseEmail(data.email) },
    });
  } catch (error) {
    if ((error as { code?: string }).code !== 'P2002' || data.email === undefined) throw error;
    const holder = await findByKey(db, scope, customer.storeId, data.email);
    throw emailTaken(holder?.id ?? 'unknown');
  }
}

/**
 * The customer a checkout names by e-mail: the account's oldest customer with it (in any store),
 * else a new customer of this store. Concurrent checkouts with one new e-mail get one customer.
 */
export async function findOrCreateCustomerByEmail(tx: Tx, scope: Scope, storeId: string, details: CustomerDetails) {
  const email = normaliseEmail(details.email);
  const existing = await tx.customer.findFirst({
    where: { ...scope, email },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  if (existing) return existing;
  const id = await insertUnlessTaken(tx, scope, storeId, details);
  if (id) return tx.customer.findUniqueOrThrow({ where: { id } });
  // Read committed: this statement sees the row the winning transaction committed.
  const winner = await findByKey(tx, scope, storeId, email);
  if (!winner) throw new Error(`customer ${email} conflicted on insert but cannot be read`);
  return winner;
}
