import express, { type Express } from 'express';
import { authenticate, requireKeyKind } from './auth/authenticate';
import type { AppDeps } from './core/context';
import { registerEventRoutes } from './events/routes';
import { registerHealthRoutes } from './health/routes';
import { registerTestUtilityRoutes } from './test-utilities/routes';
import { registerWebhookRoutes } from './webhooks/routes';
import { registerCheckoutOfferRoutes } from './checkout-offers/routes';
import { registerOfferRoutes } from './offers/routes';
import { registerPluginRoutes } from './plugins/routes';
import { registerPluginV2Routes } from './plugin-deployments/routes';
import { registerDomainRoutes } from './domains/routes';
import { registerBuilderRoutes } from './builder/routes';
import { registerCheckoutSessionRoutes } from './checkout-sessions/routes';
import { registerCustomerRoutes } from './customers/routes';
import { registerEmailTemplateRoutes } from './email-templates/routes';
import { registerOrderRoutes } from './orders/routes';
import { registerPaymentInstrumentRoutes } from './payment-instruments/routes';
import { registerProductRoutes } from './products/routes';
import { registerPromotionCodeRoutes } from './promotion-codes/routes';
import { registerPromotionRoutes } from './promotions/routes';
import { registerStoreRoutes } from './stores/routes';
import { registerPortalRoutes } from './portal/routes';
import { registerPortalSessionRoutes } from './portal-sessions/routes';
import { registerSubscriptionRoutes } from './subscriptions/routes';
import { registerIdempotency } from './idempotency/register';
import { registerPaymentRoutes } from './payments/routes';
import { registerPaymentAuthenticationRoutes } from './payment-authentication/routes';
import { registerRefundRoutes } from './refunds/routes';
import { registerCheckoutPayRoutes } from './checkout-pay/routes';
import { registerPartnerMerchantRoutes } from './partner-merchants/routes';
import { registerPartnerTpaRoutes } from './partner-tpas/routes';
import { registerAuthTestRoutes } from './auth-test/routes';
import { accountRateLimit } from './rate-limit/limiter';
import type { LastUsedRecorder } from '../keys/lastUsed';
import { ApiError } from './core/errors';
import { registerProcessorRoutes } from './processors/routes';
import { registerProcessorWebhookRoutes } from './processor-webhooks/routes';
import { registerPaymentFlowRoutes } from './payment-flows/routes';
import { registerBlockRuleRoutes } from './block-rules/routes';
import { registerThreeDsRoutes } from './threeds/routes';
import { registerIamRoutes } from './iam/routes';
import { registerFunnelRoutes } from './funnels/routes';
import { registerFunnelSessionRoutes } from './funnel-sessions/routes';
import { registerFunnelTrackingRoutes } from './funnel-tracking/routes';

export const publicBasePath = '/api/public/v1';
export const processingBasePath = '/api/processing/v1';
export const portalBasePath = '/api/v1/portal';

/**
 * The routers every resource group registers on. Keys decide the domain (docs/api-keys.md):
 * - `publicRouter`: /api/public/v1, CRM keys only (runtime);
 * - `partnerPublicRouter`: /api/public/v1/partner, partner keys only (CRM-side provisioning);
 * - `processingRouter`: /api/processing/v1, processing keys only (runtime);
 * - `partnerProcessingRouter`: /api/processing/v1/partner, partner keys only;
 * - `portalRouter`: /api/v1/portal, customer sessions (x-cms-token), no API keys;
 * - `unauthenticatedRouter`: /api/public/v1 routes with no auth (health; processor webhooks, signed by the vendor).
 */
export interface Routers {
  unauthenticatedRouter: express.Router;
  publicRouter: express.Router;
  partnerPublicRouter: express.Router;
  processingRouter: express.Router;
  partnerProcessingRouter: express.Router;
  portalRouter: express.Router;
  /** /api/v1 outside the portal (customer session login lives at /api/v1/cms/session). */
  cmsRouter: express.Router;
  /** /api/v1/iam: identity-provider user sessions only, never API keys (docs/iam.md). */
  iamRouter: express.Router;
  /** /.well-known: the embedded identity provider's JWKS. */
  wellKnownRouter: express.Router;
}

/** Each resource group's `register…Routes(routers, deps)`; add one line per group. */
const resourceGroups: ((routers: Routers, deps: AppDeps) => void)[] = [
  ({ unauthenticatedRouter }, deps) => registerHealthRoutes(unauthenticatedRouter, deps),
  registerProcessorWebhookRoutes,
  // First: Idempotency-Key runs before every public and processing route.
  registerIdempotency,
  registerEventRoutes,
  registerWebhookRoutes,
  registerTestUtilityRoutes,
  registerStoreRoutes,
  registerProductRoutes,
  registerCustomerRoutes,
  registerPaymentInstrumentRoutes,
  registerCheckoutSessionRoutes,
  registerOrderRoutes,
  registerPromotionRoutes,
  registerPromotionCodeRoutes,
  registerCheckoutOfferRoutes,
  registerOfferRoutes,
  registerPluginRoutes,
  registerPluginV2Routes,
  registerDomainRoutes,
  registerBuilderRoutes,
  registerEmailTemplateRoutes,
  registerSubscriptionRoutes,
  registerPortalSessionRoutes,
  registerPortalRoutes,
  registerPartnerMerchantRoutes,
  registerPartnerTpaRoutes,
  registerAuthTestRoutes,
  registerProcessorRoutes,
  registerPaymentFlowRoutes,
  registerBlockRuleRoutes,
  registerPaymentRoutes,
  registerPaymentAuthenticationRoutes,
  registerRefundRoutes,
  registerCheckoutPayRoutes,
  registerThreeDsRoutes,
  registerIamRoutes,
  registerFunnelRoutes,
  registerFunnelSessionRoutes,
  registerFunnelTrackingRoutes,
];

/** Mounts every resource group. Each group lives in its own folder with routes.ts + validators.ts. */
export function mountRoutes(app: Express, deps: AppDeps, lastUsed: LastUsedRecorder): void {
  const routers: Routers = {
    unauthenticatedRouter: express.Router(),
    publicRouter: express.Router(),
    partnerPublicRouter: express.Router(),
    processingRouter: express.Router(),
    partnerProcessingRouter: express.Router(),
    portalRouter: express.Router(),
    cmsRouter: express.Router(),
    iamRouter: express.Router(),
    wellKnownRouter: express.Router(),
  };
  for (const register of resourceGroups) register(routers, deps);

  // Authentication, then the per-account rate limit (it keys on the authenticated account).
  const auth = [
    authenticate(deps.db, (keyId) => lastUsed.touch(keyId)),
    ...accountRateLimit({ logger: deps.logger, redisUrl: deps.config.REDIS_URL }),
  ];
  // Provisioning paths end here: an unknown one is 404, not a fall-through into the runtime domain.
  const noPartnerRoute = (req: express.Request) => {
    throw new ApiError(404, 'NOT_FOUND', `No route for ${req.method} ${req.originalUrl.split('?')[0]}`);
  };
  // Identity management accepts only identity-provider sessions, never API keys (docs/iam.md).
  app.use('/api/v1/iam', routers.iamRouter);
  app.use('/.well-known', routers.wellKnownRouter);
  app.use('/api/v1', routers.cmsRouter);
  app.use(portalBasePath, routers.portalRouter);
  app.use(publicBasePath, routers.unauthenticatedRouter);
  app.use(`${publicBasePath}/partner`, auth, requireKeyKind('partner'), routers.partnerPublicRouter, noPartnerRoute);
  app.use(publicBasePath, auth, requireKeyKind('crm'), routers.publicRouter);
  app.use(
    `${processingBasePath}/partner`,
    auth,
    requireKeyKind('partner'),
    routers.partnerProcessingRouter,
    noPartnerRoute,
  );
  app.use(processingBasePath, auth, requireKeyKind('processing'), routers.processingRouter);
}
