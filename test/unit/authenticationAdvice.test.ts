import { authenticationRequiredMessage } from '../../src/payments/authenticationAdvice';

describe('the message of a payment that needed 3-D Secure', () => {
  const settings = { flowId: 'flow_a', flowThreeDsEnabled: false, processorId: 'proc_b', processorEnable3DS: false };

  it('names the processor only when the flow already has threeDsEnabled', () => {
    const message = authenticationRequiredMessage('Needs 3DS', { ...settings, flowThreeDsEnabled: true });
    expect(message).toBe(
      'Needs 3DS. Authenticate the cardholder first: turn on enable3DS on processor proc_b (POST /processors/update) ' +
        'so the engine runs 3-D Secure, or send the threeDs values of your own 3-D Secure server.',
    );
  });

  it('with both on, says the payment came unauthenticated instead of asking to turn anything on', () => {
    const message = authenticationRequiredMessage(undefined, {
      ...settings,
      flowThreeDsEnabled: true,
      processorEnable3DS: true,
    });
    expect(message).toMatch(
      /^The issuer asks for 3-D Secure authentication\. threeDsEnabled is on for payment flow flow_a/,
    );
    expect(message).not.toContain('turn on');
  });

  it('speaks of the payment flow without an id when the payment names none', () => {
    expect(authenticationRequiredMessage('x', { ...settings, flowId: null })).toContain(
      'threeDsEnabled on the payment flow (',
    );
  });
});
