import { randomBytes, randomUUID } from 'node:crypto';
import { memoryLimitDefaults } from '../../src/config';

/** One authentication the sandbox 3DS server handled (AReq/ARes, and CRes/RReq for challenges). */
export interface SandboxThreeDsTransaction {
  reference: string;
  threeDSServerTransID: string;
  acsTransID: string;
  dsTransID: string;
  messageVersion: string;
  cardBrand: string;
  deviceChannel: 'browser' | '3ri';
  /** C while a challenge is open; final afterwards. */
  transStatus: 'Y' | 'A' | 'N' | 'R' | 'U' | 'C';
  eci: string | null;
  authenticationValue: string | null;
  notificationUrl: string | null;
  amount: number;
  currency: string;
  createdAt: string;
}

/** In-memory store of the simulated 3DS server: a simulation, not a database. Keeps the newest `maxTransactions`. */
export class ThreeDsServerState {
  constructor(private readonly maxTransactions: number = memoryLimitDefaults.SANDBOX_THREEDS_MAX_TRANSACTIONS) {}

  private readonly byServerId = new Map<string, SandboxThreeDsTransaction>();
  private readonly byReference = new Map<string, string>();
  private readonly byAcsId = new Map<string, string>();

  /** The transaction already made for this engine reference (a retried call), if any. */
  findByReference(reference: string): SandboxThreeDsTransaction | undefined {
    const id = this.byReference.get(reference);
    return id ? this.byServerId.get(id) : undefined;
  }

  findByServerId(id: string): SandboxThreeDsTransaction | undefined {
    return this.byServerId.get(id);
  }

  findByAcsId(id: string): SandboxThreeDsTransaction | undefined {
    const serverId = this.byAcsId.get(id);
    return serverId ? this.byServerId.get(serverId) : undefined;
  }

  create(
    fields: Omit<SandboxThreeDsTransaction, 'threeDSServerTransID' | 'acsTransID' | 'dsTransID' | 'createdAt'>,
  ): SandboxThreeDsTransaction {
    const transaction: SandboxThreeDsTransaction = {
      ...fields,
      threeDSServerTransID: randomUUID(),
      acsTransID: randomUUID(),
      dsTransID: randomUUID(),
      createdAt: new Date().toISOString(),
    };
    this.byServerId.set(transaction.threeDSServerTransID, transaction);
    this.byReference.set(transaction.reference, transaction.threeDSServerTransID);
    this.byAcsId.set(transaction.acsTransID, transaction.threeDSServerTransID);
    while (this.byServerId.size > this.maxTransactions) this.evictOldest();
    return transaction;
  }

  private evictOldest(): void {
    const [oldestId, oldest] = this.byServerId.entries().next().value as [string, SandboxThreeDsTransaction];
    this.byServerId.delete(oldestId);
    this.byReference.delete(oldest.reference);
    this.byAcsId.delete(oldest.acsTransID);
  }
}

/** A CAVV/AAV-like value: 20 random bytes, base64 (28 characters), as schemes issue them. */
export function newAuthenticationValue(): string {
  return randomBytes(20).toString('base64');
}
