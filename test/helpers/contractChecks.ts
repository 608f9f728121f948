import { takeEventShapeViolations } from '../../src/events/recordEvent';
import { takeContractViolations } from '../../src/http/core/responseContract';

// Every app a test starts in this process checks its answers against /openapi.json (CHECK_RESPONSES
// is on under NODE_ENV=test): an answer its operation does not declare fails the test that caused
// it (answers given in a beforeAll fail the first test; those after the last test fail the file).
// The same for events recorded (by routes or by the in-process worker) off their declared shape.
function assertNoViolations(): void {
  const answers = takeContractViolations().map(
    (v) => `  ${v.method} ${v.path} (${v.operation}) → ${v.status}: ${v.problem}`,
  );
  const events = takeEventShapeViolations().map((v) => `  event ${v.eventType}: ${v.problem}`);
  if (answers.length === 0 && events.length === 0) return;
  throw new Error(
    [
      ...(answers.length ? ['Answers that /openapi.json does not declare:', ...answers] : []),
      ...(events.length ? ['Events off their shape (src/events/payloads.ts):', ...events] : []),
    ].join('\n'),
  );
}

afterEach(assertNoViolations);
afterAll(assertNoViolations);
