import { z } from 'zod';
import { idOf, idParam } from '../../commerce/schemas';

export const customerSchema = z
  .object({
    id: z.string(),
    storeId: z.string().nullable(),
    email: z.string(),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    name: z.string().nullable(),
    phone: z.string().nullable(),
    externalRef: z.string().nullable(),
    mode: z.enum(['test', 'live']),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Customer');
export type CustomerOut = z.infer<typeof customerSchema>;

export const customerDetailsSchema = z
  .object({
    email: z.string().trim().toLowerCase().pipe(z.email()),
    firstName: z.string().trim().min(1).max(100).optional(),
    lastName: z.string().trim().min(1).max(100).optional(),
    phone: z.string().trim().min(3).max(32).optional(),
  })
  .strict();

export const createCustomerSchema = customerDetailsSchema
  .extend({
    storeId: idOf('store').optional(),
    externalRef: z.string().trim().min(1).max(200).optional(),
  })
  .strict();
export type CreateCustomerInput = z.infer<typeof createCustomerSchema>;

export const updateCustomerSchema = z
  .object({
    id: idOf('cus'),
    data: createCustomerSchema.omit({ storeId: true }).partial().strict(),
  })
  .strict();

export const customerParams = idParam('customerId', 'cus');

export function fullName(row: { firstName: string | null; lastName: string | null }): string | null {
  const name = [row.firstName, row.lastName].filter(Boolean).join(' ');
  return name || null;
}

export function toPublicCustomer(row: {
  id: string;
  storeId: string | null;
  email: string;
  firstName: string | null;
  lastName: string | null;
  phone: string | null;
  externalRef: string | null;
  mode: 'test' | 'live';
  createdAt: Date;
  updatedAt: Date;
}): CustomerOut {
  return {
    id: row.id,
    storeId: row.storeId,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    name: fullName(row),
    phone: row.phone,
    externalRef: row.externalRef,
    mode: row.mode,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
