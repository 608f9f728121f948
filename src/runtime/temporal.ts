import path from 'node:path';
import type { Config } from '../config';
import type { Logger } from '../logging/logger';
import { startDevServer } from '../../temporal/devServer';
import type { TemporalSettings } from '../../temporal/connection';

export interface TemporalHandle {
  settings: TemporalSettings;
  uiUrl?: string;
  stop(): Promise<void>;
}

export function temporalSettingsFrom(cfg: Config, address: string): TemporalSettings {
  return {
    address,
    namespace: cfg.TEMPORAL_NAMESPACE,
    apiKey: cfg.TEMPORAL_API_KEY,
    tls: cfg.TEMPORAL_TLS,
    tlsCertPath: cfg.TEMPORAL_TLS_CERT_PATH,
    tlsKeyPath: cfg.TEMPORAL_TLS_KEY_PATH,
  };
}

/**
 * Uses TEMPORAL_ADDRESS when set, otherwise starts the dev server with its SQLite file in DATA_DIR
 * (in its own process group when the caller's Lifecycle handles signals).
 */
export async function provideTemporal(
  cfg: Config,
  logger: Logger,
  options: { ownProcessGroup?: boolean } = {},
): Promise<TemporalHandle> {
  if (cfg.TEMPORAL_ADDRESS) {
    return { settings: temporalSettingsFrom(cfg, cfg.TEMPORAL_ADDRESS), stop: async () => undefined };
  }
  const server = await startDevServer({
    port: cfg.TEMPORAL_DEV_SERVER_PORT,
    uiPort: cfg.TEMPORAL_UI_PORT,
    namespace: cfg.TEMPORAL_NAMESPACE,
    dbFilename: path.join(cfg.DATA_DIR, 'temporal', 'temporal.sqlite'),
    logFile: path.join(cfg.DATA_DIR, 'temporal.log'),
    cliPath: cfg.TEMPORAL_CLI_PATH,
    ownProcessGroup: options.ownProcessGroup,
  });
  logger.info({ address: server.address }, 'temporal dev server started');
  return { settings: temporalSettingsFrom(cfg, server.address), uiUrl: server.uiUrl, stop: server.stop };
}
