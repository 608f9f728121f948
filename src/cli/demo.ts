import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { config } from '../config';
import { runDemo } from '../demo/firstPayment';

/**
 * `npm run demo`: a first payment against a running `npm start`. Makes a test partner with the
 * admin CLI (as an operator would), then everything else through the API, and prints the hosted
 * page's link, the test cards and the same steps as curl.
 */
async function main(): Promise<void> {
  const cfg = config();
  // The engine npm start runs with the same configuration (HOST, PORT).
  const apiUrl = `http://${cfg.HOST === '0.0.0.0' ? '127.0.0.1' : cfg.HOST}:${cfg.PORT}`;
  const health = await fetch(`${apiUrl}/api/public/v1/health`).catch(() => null);
  if (!health?.ok) {
    console.error(`No engine answers at ${apiUrl}: start it first with npm start (with the same HOST and PORT).`);
    process.exit(1);
  }
  const root = path.resolve(__dirname, '..', '..');
  const created = execFileSync(
    process.execPath,
    ['--import', 'tsx', 'src/cli/admin.ts', 'create-partner', '--name', 'Demo partner', '--mode', 'test'],
    { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const { partnerKey } = JSON.parse(created) as { partnerKey: string };
  const result = await runDemo({
    apiUrl,
    partnerKey,
    temporalUiUrl: `http://localhost:${cfg.TEMPORAL_UI_PORT}`,
    // The sandbox npm start runs (SANDBOX_PORT), unless it is somewhere else (SANDBOX_URL).
    sandboxUrl: cfg.SANDBOX_URL ?? `http://127.0.0.1:${cfg.SANDBOX_PORT}`,
  });
  console.log(`Demo merchant ready: store ${result.storeId}, checkout session ${result.checkoutSessionId}`);
  for (const line of result.lines) console.log(line);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
