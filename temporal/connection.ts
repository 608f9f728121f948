import fs from 'node:fs';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, type NativeConnectionOptions } from '@temporalio/worker';
import { tracingClientInterceptors } from '../src/tracing/temporal';

export interface TemporalSettings {
  address: string;
  namespace: string;
  apiKey?: string;
  tls?: boolean;
  tlsCertPath?: string;
  tlsKeyPath?: string;
}

function tlsOptions(settings: TemporalSettings): NativeConnectionOptions['tls'] {
  if (settings.tlsCertPath && settings.tlsKeyPath) {
    return {
      clientCertPair: {
        crt: fs.readFileSync(settings.tlsCertPath),
        key: fs.readFileSync(settings.tlsKeyPath),
      },
    };
  }
  // Temporal Cloud with an API key requires TLS; a plain flag turns on server-verified TLS.
  return settings.tls || settings.apiKey ? true : undefined;
}

/** A client for starting, signalling and querying workflows (used by the HTTP API); with tracing on, it passes the caller's trace on. */
export async function createTemporalClient(settings: TemporalSettings): Promise<Client> {
  const connection = await Connection.connect({
    address: settings.address,
    tls: tlsOptions(settings),
    apiKey: settings.apiKey,
  });
  return new Client({ connection, namespace: settings.namespace, interceptors: tracingClientInterceptors() });
}

/** The native connection a worker polls through. */
export async function createWorkerConnection(settings: TemporalSettings): Promise<NativeConnection> {
  return NativeConnection.connect({
    address: settings.address,
    tls: tlsOptions(settings),
    apiKey: settings.apiKey,
  });
}
