import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createStripeSimulatorRouter } from './router';
import { StripeSimulatorState } from './state';

export interface RunningStripeSimulator {
  /** The origin to give a stripe processor as `credentials.endpoint`. */
  url: string;
  state: StripeSimulatorState;
  stop(): Promise<void>;
}

export function createStripeSimulatorApp(state = new StripeSimulatorState()): express.Express {
  const app = express();
  app.disable('x-powered-by');
  // Stripe's encoding: nested form fields (`payment_method_data[card][number]`) and `expand[0]=…`.
  app.set('query parser', 'extended');
  app.use(express.urlencoded({ extended: true, limit: '256kb' }));
  app.use(createStripeSimulatorRouter(state));
  return app;
}

/** Serves the Stripe simulator on its own port: Stripe's paths (`/v1/…`) sit at the root. */
export async function startStripeSimulator(port = 0, host = '127.0.0.1'): Promise<RunningStripeSimulator> {
  const state = new StripeSimulatorState();
  const server = http.createServer(createStripeSimulatorApp(state));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const { port: actualPort } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${actualPort}`,
    state,
    stop: () =>
      new Promise<void>((resolve) => {
        state.sender.stop();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
