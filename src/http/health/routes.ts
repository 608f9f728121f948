import type { Router } from 'express';
import { probeHealth } from '../../runtime/health';
import type { AppDeps } from '../core/context';
import { defineRoute } from '../core/route';
import { healthResponseSchema, type HealthResponse } from './validators';

const basePath = '/api/public/v1';

export function registerHealthRoutes(router: Router, deps: AppDeps): void {
  defineRoute(
    router,
    basePath,
    {
      method: 'get',
      path: '/health',
      summary: 'Reports whether Postgres and Temporal (with a polling worker) are reachable',
      description:
        'Answers 200 when Postgres, Temporal and a polling worker are reachable, 503 naming the failing part otherwise. No API key; for load balancers and uptime checks.',
      tags: ['health'],
      security: 'none',
      response: healthResponseSchema,
      otherResponseStatuses: [503],
    },
    async ({ res }) => {
      const { database, temporal } = await probeHealth({
        db: deps.db,
        temporal: deps.temporal,
        namespace: deps.config.TEMPORAL_NAMESPACE,
        taskQueue: deps.taskQueue,
      });
      const body: HealthResponse = {
        status: !database.error && !temporal.error && temporal.value ? 'ok' : 'degraded',
        database: {
          status: database.error ? 'down' : 'up',
          latencyMs: database.latencyMs,
          ...(database.error ? { error: database.error } : {}),
        },
        temporal: {
          status: temporal.error ? 'down' : 'up',
          latencyMs: temporal.latencyMs,
          namespace: deps.config.TEMPORAL_NAMESPACE,
          taskQueue: deps.taskQueue,
          workerPolling: temporal.value === true,
          ...(temporal.error ? { error: temporal.error } : {}),
        },
      };
      res.status(body.status === 'ok' ? 200 : 503);
      return body;
    },
  );
}
