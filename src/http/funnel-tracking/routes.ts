import { funnelClientDeps } from '../../funnels/client';
import { trackSessionStep } from '../../funnels/client';
import { funnelOfStep, funnelStepReport, recordStepEvent } from '../../funnels/tracking';
import { scopeOf } from '../auth/scope';
import { beforeWork } from '../core/beforeWork';
import type { AppDeps } from '../core/context';
import { defineRoute } from '../core/route';
import type { Routers } from '../routes';
import { reportParams, reportQuery, stepReportSchema, trackStepResponseSchema, trackStepSchema } from './validators';

const basePath = '/api/public/v1';
const tags = ['funnel-tracking'];

/** Funnel tracking (CRM keys): step events (stored, and moving a named session), and the per-step report. */
export function registerFunnelTrackingRoutes({ publicRouter }: Routers, deps: AppDeps): void {
  const client = funnelClientDeps(deps);

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/funnel-tracking/step',
      summary: 'Records a step event (view, enter, convert, custom); with sessionId, view/enter move that session',
      description:
        "Records a view, enter, convert or custom event of a funnel step, for the funnel's report; with a sessionId, view and enter also move that session.",
      tags,
      body: trackStepSchema,
      example: {
        eventType: 'view',
        storeId: 'store_8fK2mQ9xLr4TnB7vW1cZ',
        stepId: 'step_8DcR3fVt6GbY1hNu4JmK',
        deviceType: 'mobile',
        environment: 'production',
        sessionId: 'fs_5TgB8yHn1UjM4iKo7LpQ',
      },
      response: trackStepResponseSchema,
      errors: [409],
    },
    async ({ body, req }) => {
      const scope = scopeOf(req);
      const { funnelId } = await beforeWork(() => funnelOfStep(deps.db, scope, body));
      if (body.sessionId)
        await trackSessionStep(client, scope, body.sessionId, { eventType: body.eventType, stepId: body.stepId });
      if (body.funnelTracking !== false) await recordStepEvent(deps.db, scope, funnelId, body);
      return { success: true as const, eventType: body.eventType, stepId: body.stepId };
    },
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'get',
      path: '/funnels/:funnelId/report',
      summary: 'Views, enters, conversions, custom events and sessions per step of a funnel',
      description:
        'Counts per step of a funnel (views, enters, conversions, custom events, sessions); use it to compare steps.',
      tags,
      params: reportParams,
      query: reportQuery,
      response: stepReportSchema,
    },
    async ({ params, query, req }) => ({
      funnelId: params.funnelId,
      steps: await funnelStepReport(deps.db, scopeOf(req), params.funnelId, query),
    }),
  );
}
