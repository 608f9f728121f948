import type { SandboxThreeDsTransaction } from './state';

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);

/** The mock ACS challenge (test mode only): two form posts, complete or fail. */
export function challengePageHtml(transaction: SandboxThreeDsTransaction, actionPath: string): string {
  const amount = `${transaction.amount} ${transaction.currency} (minor units)`;
  const action = escapeHtml(actionPath);
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Sandbox 3-D Secure challenge</title></head>
<body>
  <h1>Sandbox 3-D Secure challenge</h1>
  <p>Test mode: this is a mock issuer page. No real authentication happens.</p>
  <p>Card: ${escapeHtml(transaction.cardBrand)} · Amount: ${escapeHtml(amount)}</p>
  <p>Transaction: <code>${escapeHtml(transaction.acsTransID)}</code></p>
  <form method="post" action="${action}">
    <input type="hidden" name="outcome" value="complete">
    <button type="submit" id="complete">Complete authentication</button>
  </form>
  <form method="post" action="${action}">
    <input type="hidden" name="outcome" value="fail">
    <button type="submit" id="fail">Fail authentication</button>
  </form>
</body>
</html>`;
}

export function finishedPageHtml(transaction: SandboxThreeDsTransaction): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Challenge finished</title></head>
<body><h1>Challenge finished</h1><p>transStatus: ${escapeHtml(transaction.transStatus)}</p></body></html>`;
}
