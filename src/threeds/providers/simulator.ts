import { createThreeDsServerClient } from '../serverClient';
import type { OpenChallenge, ProviderAuthenticationRequest, ProviderResult, ThreeDsProvider } from './types';

/** The sandbox's simulated 3DS server (test mode only) as a provider. */
export function createSimulatorProvider(baseUrl: string): ThreeDsProvider {
  const server = createThreeDsServerClient(baseUrl);
  return {
    authenticate: ({
      expMonth: _month,
      expYear: _year,
      cardholderName: _name,
      ...request
    }: ProviderAuthenticationRequest) => server.authenticate(request),
    async result(challenge: OpenChallenge): Promise<ProviderResult | null> {
      // The activity checks first that a simulator session has an open challenge (its transaction id).
      const result = await server.result(challenge.threeDSServerTransID!);
      return result.transStatus === 'C' ? null : result;
    },
  };
}
