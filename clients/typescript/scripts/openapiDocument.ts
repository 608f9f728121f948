import { parseConfig } from '../../../src/config';
import { createApp } from '../../../src/http/app';
import { generateOpenApiDocument } from '../../../src/http/core/openapi';
import type { AppDeps } from '../../../src/http/core/context';
import { LastUsedRecorder } from '../../../src/keys/lastUsed';
import { createLogger } from '../../../src/logging/logger';

/**
 * A stand-in for a dependency that building the document must never use: routes are declared
 * (and so registered in the document) without a database, Temporal or mail server, and any use
 * at declaration time is a bug worth hearing about rather than a silent connection attempt.
 */
function notConnected<T>(name: string): T {
  return new Proxy(
    {},
    {
      get(_target, property) {
        throw new Error(`${name}.${String(property)} was used while only building the OpenAPI document`);
      },
    },
  ) as T;
}

/**
 * The document `GET /openapi.json` serves, built without a server: the app is assembled with the
 * default configuration (as `npm start` runs it), which declares every route, and the document is
 * generated from those declarations. Nothing listens and nothing connects.
 */
export function buildOpenApiDocument(): ReturnType<typeof generateOpenApiDocument> {
  const config = parseConfig({});
  const logger = createLogger('silent');
  const deps: AppDeps = {
    db: notConnected('db'),
    temporal: notConnected('temporal'),
    mailer: notConnected('mailer'),
    config,
    logger,
    taskQueue: config.TEMPORAL_TASK_QUEUE,
    sandboxUrl: 'http://127.0.0.1:0',
  };
  createApp(deps, new LastUsedRecorder(deps.db, logger, config.LAST_USED_FLUSH_MS, config.LAST_USED_MAX_PENDING_KEYS));
  return generateOpenApiDocument();
}
