import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import { funnelStep } from '../shared/activityOptions';
import { entryStepOf, type FunnelStep } from '../../src/domain/funnelGraph';
import type {
  FunnelSessionInput,
  FunnelSessionState,
  FunnelSessionView,
  OfferAnswerView,
} from '../../src/funnels/sessionTypes';
import { refuse } from './messages';

const { saveFunnelSession } = proxyActivities<Activities>(funnelStep);

/** A funnel session's state while its workflow runs, and the row that projects it. */
export class FunnelSessionRun {
  readonly state: FunnelSessionState;
  readonly steps: Map<string, FunnelStep>;
  /** Bumped by every accepted message: the idle timer starts again, the loop saves the row. */
  touches = 0;
  saved = -1;
  busy = 0;
  /** In-flight or finished offer answers by step: identical concurrent accepts share one charge. */
  readonly answering = new Map<string, { accept: boolean; answer: Promise<OfferAnswerView> }>();

  constructor(readonly input: FunnelSessionInput) {
    this.steps = new Map(input.steps.map((step) => [step.id, step]));
    this.state = {
      sessionId: input.sessionId,
      funnelId: input.funnelId,
      storeId: input.storeId,
      customerId: input.customerId,
      status: 'active',
      currentStepId: entryStepOf(input.steps).id,
      checkoutPaymentId: null,
      checkout: null,
      answers: [],
    };
  }

  readonly view = (): FunnelSessionView => {
    const { checkout: _checkout, ...rest } = this.state;
    return { ...rest, answers: this.state.answers.map((answer) => ({ ...answer })) };
  };

  moveTo(stepId: string): void {
    this.state.currentStepId = stepId;
    if (this.steps.get(stepId)?.type === 'thankyou') this.state.status = 'completed';
  }

  assertActive(): void {
    if (this.state.status !== 'active')
      throw refuse('conflict', 'FUNNEL_SESSION_ENDED', `Funnel session is ${this.state.status}`);
  }

  stepOf(stepId: string): FunnelStep {
    const step = this.steps.get(stepId);
    if (!step) throw refuse('not_found', 'NOT_FOUND', 'Step not found in this funnel session');
    return step;
  }

  /** Writes the row as of now; `saved` tells the loop which touch it includes. */
  async save(): Promise<void> {
    const at = this.touches;
    await saveFunnelSession({
      accountId: this.input.accountId,
      mode: this.input.mode,
      idleTimeoutMs: this.input.idleTimeoutMs,
      view: this.view(),
    });
    this.saved = at;
  }
}
