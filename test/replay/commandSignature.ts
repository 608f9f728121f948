import { createHash } from 'node:crypto';

/**
 * A history's command signature: what the workflow did, in order, as replay checks it: activities
 * (by type), local activities (by type), timers, child workflows, external signals and cancels,
 * search-attribute upserts, patch markers, the update and signal handlers that ran, and how it
 * ended. Ids, payloads and times are left out, so two runs down the same branch share one
 * signature. A block repeated back to back (a loop: a cascade's attempts, billing periods, polling
 * timers) counts as once or twice: a loop that went round once and one that went round again are
 * different branches (one attempt, a cascade), while a third round adds nothing new.
 */
type Event = Record<string, any>;

export function commandSequence(history: { events?: Event[] }): string[] {
  const steps: string[] = [];
  for (const event of history.events ?? []) {
    const kind = Object.keys(event).find((key) => key.endsWith('EventAttributes'));
    if (!kind) continue;
    const step = stepOf(kind.replace(/EventAttributes$/, ''), event[kind] as Record<string, any>);
    if (step) steps.push(step);
  }
  return collapseRepeats(steps);
}

function stepOf(kind: string, attributes: Record<string, any>): string | undefined {
  switch (kind) {
    case 'activityTaskScheduled':
      return `activity:${attributes.activityType?.name}`;
    case 'activityTaskCancelRequested':
      return 'cancel-activity';
    case 'markerRecorded':
      return markerStep(attributes);
    case 'timerStarted':
      return 'timer';
    case 'timerCanceled':
      return 'cancel-timer';
    case 'startChildWorkflowExecutionInitiated':
      return `child:${attributes.workflowType?.name}`;
    case 'signalExternalWorkflowExecutionInitiated':
      return `signal-external:${attributes.signalName}`;
    case 'requestCancelExternalWorkflowExecutionInitiated':
      return 'cancel-external';
    case 'upsertWorkflowSearchAttributes':
      return 'upsert-search-attributes';
    case 'workflowPropertiesModified':
      return 'modify-properties';
    case 'workflowExecutionUpdateAccepted':
      return `update:${attributes.acceptedRequest?.input?.name}`;
    case 'workflowExecutionSignaled':
      return `signal:${attributes.signalName}`;
    case 'workflowExecutionCompleted':
      return 'end:completed';
    case 'workflowExecutionFailed':
      return 'end:failed';
    case 'workflowExecutionContinuedAsNew':
      return 'end:continued-as-new';
    case 'workflowExecutionCanceled':
      return 'end:canceled';
    default:
      return undefined;
  }
}

/** Local activities and patches are markers; their type or patch id is in the marker's JSON payloads. */
function markerStep(attributes: Record<string, any>): string {
  const name = String(attributes.markerName);
  const payloads = Object.values(attributes.details ?? {}).flatMap((value: any) => value?.payloads ?? []);
  for (const payload of payloads) {
    const data = decode(payload?.data);
    if (name === 'core_local_activity' && typeof data?.activity_type === 'string') return `local:${data.activity_type}`;
    if (name === 'core_patch' && typeof data === 'string') return `patch:${data}`;
    if (name === 'core_patch' && typeof data?.patch_id === 'string') return `patch:${data.patch_id}`;
    if (name === 'core_patch' && typeof data?.id === 'string') return `patch:${data.id}`;
  }
  return `marker:${name}`;
}

function decode(data: unknown): any {
  if (typeof data !== 'string') return undefined;
  try {
    return JSON.parse(Buffer.from(data, 'base64').toString('utf8'));
  } catch {
    return undefined;
  }
}

/** Shortens every block repeated three or more times in a row to two rounds (`a a a` → `a a`) until none is left. */
export function collapseRepeats(steps: readonly string[]): string[] {
  let current = [...steps];
  const repeatsAt = (start: number, length: number, round: number) =>
    current.slice(start, start + length).every((step, i) => step === current[start + round * length + i]);
  for (let changed = true; changed;) {
    changed = false;
    for (let length = 1; length <= Math.floor(current.length / 3) && !changed; length++) {
      for (let start = 0; start + 3 * length <= current.length; start++) {
        if (repeatsAt(start, length, 1) && repeatsAt(start, length, 2)) {
          current = [...current.slice(0, start + 2 * length), ...current.slice(start + 3 * length)];
          changed = true;
          break;
        }
      }
    }
  }
  return current;
}

export function commandSignature(history: { events?: Event[] }): string {
  return commandSequence(history).join(' ');
}

/** A short stable name for a signature (file names). */
export function signatureId(signature: string): string {
  return createHash('sha256').update(signature).digest('hex').slice(0, 10);
}
