import type { Config } from '../config';

/** Split deployments (npm run api / worker) reach a sandbox started elsewhere via SANDBOX_URL. */
export function sandboxUrlOf(cfg: Config): string {
  return cfg.SANDBOX_URL ?? `http://127.0.0.1:${cfg.SANDBOX_PORT}`;
}
