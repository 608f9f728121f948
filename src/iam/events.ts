import type { Db, Prisma } from '../db/prisma';
import { newId } from '../domain/ids';

/** Identity-management event types; docs/iam.md lists them with their properties. */
export type IamEventType =
  | 's_member_added'
  | 's_member_removed'
  | 's_role_changed'
  | 's_staff_added'
  | 's_staff_removed'
  | 's_staff_role_changed'
  | 's_service_key_created'
  | 's_service_key_revoked'
  | 's_partner_updated';

export interface IamEventInput {
  eventType: IamEventType;
  actorUserId: string | null;
  accountId?: string;
  partnerId?: string;
  properties: Record<string, string | null>;
}

/** Records one change (evt_); pass the transaction of the change so both commit or neither does. */
export async function recordIamEvent(tx: Db | Prisma.TransactionClient, input: IamEventInput): Promise<void> {
  await tx.iamEvent.create({
    data: {
      id: newId('event'),
      eventType: input.eventType,
      actorUserId: input.actorUserId,
      accountId: input.accountId ?? null,
      partnerId: input.partnerId ?? null,
      properties: input.properties,
    },
  });
}
