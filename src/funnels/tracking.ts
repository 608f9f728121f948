import type { Scope } from '../commerce/scope';
import { findStoreOfScope } from '../commerce/storeOfScope';
import type { Db } from '../db/prisma';
import type { FunnelStep } from '../domain/funnelGraph';
import { newId } from '../domain/ids';
import { conflict, notFound } from '../errors';
import { findFunnel } from './funnels';
import { findFunnelSessionRow } from './sessions';
import type { FunnelTrackingEvent } from './sessionTypes';

export interface StepEventInput {
  eventType: FunnelTrackingEvent;
  storeId: string;
  stepId: string;
  deviceType?: 'mobile' | 'tablet' | 'desktop';
  environment?: 'staging' | 'production';
  sessionId?: string;
}

/**
 * The funnel of the store that has this step (and, when a session is named, checks the session is
 * of that funnel): what a tracking event is counted under.
 */
export async function funnelOfStep(db: Db, scope: Scope, input: StepEventInput): Promise<{ funnelId: string }> {
  await findStoreOfScope(db, scope, input.storeId);
  const funnel = await db.funnel.findFirst({
    where: { ...scope, storeId: input.storeId, steps: { array_contains: [{ id: input.stepId }] } },
    select: { id: true },
  });
  if (!funnel) throw notFound('Step');
  if (input.sessionId) {
    const session = await findFunnelSessionRow(db, scope, input.sessionId);
    if (session.funnelId !== funnel.id)
      throw conflict('The step is not of the funnel of this session', 'STEP_NOT_IN_SESSION');
  }
  return { funnelId: funnel.id };
}

/** Stores one tracking event of a step. */
export async function recordStepEvent(db: Db, scope: Scope, funnelId: string, input: StepEventInput): Promise<void> {
  await db.funnelStepEvent.create({
    data: {
      id: newId('funnelStepEvent'),
      ...scope,
      storeId: input.storeId,
      funnelId,
      stepId: input.stepId,
      sessionId: input.sessionId ?? null,
      eventType: input.eventType,
      deviceType: input.deviceType ?? null,
      environment: input.environment ?? null,
    },
  });
}

export interface StepReportRow {
  stepId: string;
  key: string;
  type: FunnelStep['type'];
  views: number;
  enters: number;
  conversions: number;
  custom: number;
  /** Distinct sessions with any event at the step. */
  sessions: number;
}

/** Per step of a funnel (in the funnel's order): how many views, enters, conversions and custom events. */
export async function funnelStepReport(
  db: Db,
  scope: Scope,
  funnelId: string,
  filter: { environment?: 'staging' | 'production' } = {},
): Promise<StepReportRow[]> {
  const funnel = await findFunnel(db, scope, funnelId);
  const where = { ...scope, funnelId, ...(filter.environment ? { environment: filter.environment } : {}) };
  const [counts, sessions] = await Promise.all([
    db.funnelStepEvent.groupBy({ by: ['stepId', 'eventType'], where, _count: { _all: true } }),
    db.funnelStepEvent.groupBy({ by: ['stepId', 'sessionId'], where: { ...where, sessionId: { not: null } } }),
  ]);
  const count = (stepId: string, eventType: FunnelTrackingEvent) =>
    counts.find((row) => row.stepId === stepId && row.eventType === eventType)?._count._all ?? 0;
  return funnel.steps.map((step) => ({
    stepId: step.id,
    key: step.key,
    type: step.type,
    views: count(step.id, 'view'),
    enters: count(step.id, 'enter'),
    conversions: count(step.id, 'convert'),
    custom: count(step.id, 'custom'),
    sessions: sessions.filter((row) => row.stepId === step.id).length,
  }));
}
