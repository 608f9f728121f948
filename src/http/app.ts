import { randomUUID } from 'node:crypto';
import express, { type NextFunction, type Request, type Response } from 'express';
import { pinoHttp } from 'pino-http';
import type { AppDeps } from './core/context';
import { noteAnswerTo, refusedBeforeWork } from './core/beforeWork';
import { ApiError, toApiError } from './core/errors';
import { generateOpenApiDocument } from './core/openapi';
import { readJsonBody, refuseOversizedBody } from './core/requestBody';
import { checkResponseContract, recordedContractViolations } from './core/responseContract';
import { memoryLimitDefaults } from '../config';
import { recordedEventShapeViolations } from '../events/recordEvent';
import { LastUsedRecorder } from '../keys/lastUsed';
import { registerApiReference } from './docs/routes';
import { registerHostedCheckoutRoutes } from './hosted-checkout/routes';
import { countHttpRequests, registerMetricsRoute } from '../metrics/http';
import { traceHttpRequests } from '../tracing/http';
import { activeTracing } from '../tracing/tracing';
import { mountRoutes } from './routes';

/**
 * The Express application: JSON in, JSON out, every error in one shape (ErrorBody in /openapi.json). `lastUsed`
 * collects the keys' lastUsedAt; whoever stops the server flushes it.
 */
export function createApp(
  deps: AppDeps,
  lastUsed = new LastUsedRecorder(
    deps.db,
    deps.logger,
    deps.config.LAST_USED_FLUSH_MS,
    deps.config.LAST_USED_MAX_PENDING_KEYS,
  ),
): express.Express {
  const violationsMax = deps.config.RECORDED_VIOLATIONS_MAX ?? memoryLimitDefaults.RECORDED_VIOLATIONS_MAX;
  recordedContractViolations.setLimit(violationsMax);
  recordedEventShapeViolations.setLimit(violationsMax);
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');
  if (activeTracing()) app.use(traceHttpRequests);
  app.use(
    pinoHttp({
      logger: deps.logger,
      genReqId: (req, res) => {
        const incoming = req.headers['x-request-id'];
        const id = typeof incoming === 'string' && /^[\w.-]{1,64}$/.test(incoming) ? incoming : `req_${randomUUID()}`;
        res.setHeader('x-request-id', id);
        return id;
      },
      customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : 'info'),
      serializers: {
        req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, url: req.url }),
      },
    }),
  );
  if (deps.config.METRICS_ENABLED) app.use(countHttpRequests);
  if (deps.config.CHECK_RESPONSES ?? deps.config.NODE_ENV === 'test') app.use(checkResponseContract(deps.logger));
  app.use(refuseOversizedBody, readJsonBody());

  app.get('/openapi.json', (_req, res) => {
    res.json(generateOpenApiDocument());
  });
  registerApiReference(app);
  if (deps.config.METRICS_ENABLED) registerMetricsRoute(app);
  registerHostedCheckoutRoutes(app, deps);
  mountRoutes(app, deps, lastUsed);

  app.use((req: Request) => {
    throw refusedBeforeWork(new ApiError(404, 'NOT_FOUND', `No route for ${req.method} ${req.path}`));
  });
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const apiError = toApiError(error);
    noteAnswerTo(res, error);
    if (apiError.status >= 500) req.log?.error({ err: error }, 'request failed');
    for (const [name, value] of Object.entries(apiError.headers ?? {})) res.setHeader(name, value);
    res.status(apiError.status).json(apiError.body());
  });
  return app;
}
