import { createLogger } from '../logging/logger';
import { answerMemoryProbes } from '../runtime/memoryProbe';
import { Lifecycle } from '../runtime/shutdown';
import { startSandbox } from '../../simulators/server';
import { configOrExit } from './configOrExit';

const cfg = configOrExit('sandbox');
const logger = createLogger(cfg.LOG_LEVEL);
const lifecycle = new Lifecycle(logger);

/**
 * `npm run sandbox`: only the simulated outside world (acquirer, 3DS server, outbox, webhook inbox) on
 * SANDBOX_PORT, for split deployments; API and workers reach it through SANDBOX_URL. The acquirer
 * journals to DATA_DIR/sandbox, so a restart (even after `kill -9`) never approves a key twice.
 */
async function main(): Promise<void> {
  lifecycle.exitOnSignals();
  const sandbox = await startSandbox(cfg.SANDBOX_PORT, cfg.HOST, { dataDir: cfg.DATA_DIR, limits: cfg });
  lifecycle.add('sandbox', sandbox.stop);
  answerMemoryProbes();
  logger.info({ url: sandbox.url }, 'sandbox listening');
}

main().catch(async (error: unknown) => {
  logger.fatal({ err: error }, 'sandbox failed to start');
  await lifecycle.exit(1);
});
