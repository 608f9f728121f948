import express from 'express';
import { z } from 'zod';
import { cardBrandOf } from '../../src/domain/cardBrand';
import { behaviourOf, eciFor } from './cards';
import { challengePageHtml, finishedPageHtml } from './challengePage';
import { newAuthenticationValue, ThreeDsServerState, type SandboxThreeDsTransaction } from './state';

const authenticateSchema = z.object({
  /** The engine's id for this authentication (its 3ds_ session): a retried call gets the same answer. */
  reference: z.string().min(1).max(64),
  cardNumber: z.string().regex(/^\d{12,19}$/),
  amount: z.number().int().min(0),
  currency: z.string().length(3),
  messageVersion: z.string().default('2.2.0'),
  /** browser: cardholder present (may be challenged); 3ri: merchant-initiated, never challenged. */
  deviceChannel: z.enum(['browser', '3ri']),
  challengePreference: z.string().optional(),
  /** Where the ACS sends the browser once the challenge ends (the engine's return endpoint). */
  notificationUrl: z.string().url().optional(),
  authenticationType: z.string().optional(),
  recurringInfo: z.object({ frequency: z.number().int(), expiry: z.string() }).optional(),
  merchant: z.record(z.string(), z.unknown()).optional(),
  cardholder: z.record(z.string(), z.unknown()).optional(),
});

function publicView(transaction: SandboxThreeDsTransaction, baseUrl: string) {
  return {
    threeDSServerTransID: transaction.threeDSServerTransID,
    acsTransID: transaction.acsTransID,
    dsTransID: transaction.dsTransID,
    messageVersion: transaction.messageVersion,
    cardBrand: transaction.cardBrand,
    transStatus: transaction.transStatus,
    eci: transaction.eci,
    authenticationValue: transaction.authenticationValue,
    ...(transaction.transStatus === 'C' ? { challengeUrl: `${baseUrl}/challenge/${transaction.acsTransID}` } : {}),
  };
}

function finalValues(brand: string, transStatus: 'Y' | 'A' | 'N' | 'R' | 'U') {
  const succeeded = transStatus === 'Y' || transStatus === 'A';
  return {
    transStatus,
    eci: eciFor(brand, transStatus),
    authenticationValue: succeeded ? newAuthenticationValue() : null,
  };
}

/**
 * The sandbox 3DS server + ACS over real HTTP (mounted at /threeds):
 * - POST /v2/authenticate: the authentication request; answers a final result or a challenge (C);
 * - GET /challenge/:acsTransID: the mock challenge page; POST it to complete or fail, after which
 *   the browser is redirected (303) to the notificationUrl the engine gave;
 * - GET /v2/transactions/:threeDSServerTransID: the result the engine trusts (never the browser's).
 */
export function createThreeDsServerRouter(state = new ThreeDsServerState()): express.Router {
  const router = express.Router();
  const baseUrlOf = (req: express.Request) => `${req.protocol}://${req.get('host')}${req.baseUrl}`;

  router.post('/v2/authenticate', (req, res) => {
    const parsed = authenticateSchema.safeParse(req.body);
    if (!parsed.success) {
      res.status(400).json({
        code: 'invalid_request',
        message: parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; '),
      });
      return;
    }
    const body = parsed.data;
    const existing = state.findByReference(body.reference);
    if (existing) {
      res.json(publicView(existing, baseUrlOf(req)));
      return;
    }
    const brand = cardBrandOf(body.cardNumber);
    const behaviour = behaviourOf(body.cardNumber);
    const wantsChallenge =
      behaviour === 'challenge' || (body.challengePreference === 'challenge-mandated' && behaviour === 'frictionless');
    // 3RI has no cardholder to challenge: the issuer decides on the prior authentication (Y).
    const challenge = body.deviceChannel === 'browser' && wantsChallenge;
    const decided: 'Y' | 'A' | 'R' | 'U' =
      behaviour === 'attempted' ? 'A' : behaviour === 'rejected' ? 'R' : behaviour === 'unavailable' ? 'U' : 'Y';
    const transaction = state.create({
      reference: body.reference,
      messageVersion: body.messageVersion,
      cardBrand: brand,
      deviceChannel: body.deviceChannel,
      notificationUrl: body.notificationUrl ?? null,
      amount: body.amount,
      currency: body.currency.toUpperCase(),
      ...(challenge
        ? { transStatus: 'C' as const, eci: null, authenticationValue: null }
        : finalValues(brand, decided)),
    });
    res.json(publicView(transaction, baseUrlOf(req)));
  });

  router.get('/v2/transactions/:id', (req, res) => {
    const transaction = state.findByServerId(req.params.id);
    if (!transaction) {
      res.status(404).json({ code: 'transaction_not_found', message: 'No such 3DS transaction' });
      return;
    }
    res.json(publicView(transaction, baseUrlOf(req)));
  });

  router.get('/challenge/:acsTransID', (req, res) => {
    const transaction = state.findByAcsId(req.params.acsTransID);
    if (!transaction) {
      res.status(404).type('html').send('<!doctype html><p>Unknown challenge</p>');
      return;
    }
    if (transaction.transStatus !== 'C') {
      res.type('html').send(finishedPageHtml(transaction));
      return;
    }
    res.type('html').send(challengePageHtml(transaction, `${req.baseUrl}/challenge/${transaction.acsTransID}`));
  });

  router.post('/challenge/:acsTransID', (req, res) => {
    const transaction = state.findByAcsId(req.params.acsTransID);
    const outcome = (req.body as { outcome?: unknown } | undefined)?.outcome;
    if (!transaction || (outcome !== 'complete' && outcome !== 'fail')) {
      res.status(400).type('html').send('<!doctype html><p>Unknown challenge or outcome (complete | fail)</p>');
      return;
    }
    // A second submit does not change a finished challenge; it only repeats the redirect.
    if (transaction.transStatus === 'C')
      Object.assign(transaction, finalValues(transaction.cardBrand, outcome === 'complete' ? 'Y' : 'N'));
    if (!transaction.notificationUrl) {
      res.type('html').send(finishedPageHtml(transaction));
      return;
    }
    const target = new URL(transaction.notificationUrl);
    target.searchParams.set('threeDSServerTransID', transaction.threeDSServerTransID);
    res.redirect(303, target.toString());
  });

  return router;
}
