import type { ActivityOptions, LocalActivityOptions, RetryPolicy } from '@temporalio/workflow';

/*
 * The timeouts and retry policies of every activity the workflows call, by what the call is for.
 * Options are not part of a workflow's history commands, so a change here never breaks replay;
 * whether a call is local or not is, and stays at the call site (proxyActivities or
 * proxyLocalActivities).
 */

const quickDatabaseRetry: RetryPolicy = {
  maximumAttempts: 20,
  initialInterval: '200 milliseconds',
  maximumInterval: '5 seconds',
};

/** A Postgres step on a payment's path (claims, records, the 3DS plan): quick retries, a blip costs the shopper little. */
export const databaseStep = { startToCloseTimeout: '30 seconds', retry: quickDatabaseRetry } satisfies ActivityOptions &
  LocalActivityOptions;

/**
 * The payment workflow's own short, idempotent database steps, run as local activities: no round
 * trip through the server per step (the payment answers faster); their results are still recorded
 * in the history. Retried in the worker for up to 10 s, then by timers of the server.
 */
export const paymentLocalStep: LocalActivityOptions = { ...databaseStep, localRetryThreshold: '10 seconds' };

/**
 * A call that moves money at a processor (authorize, capture/void, refund): technical failures
 * (ProcessorTechnicalError, timeouts) are retried a few times with a short backoff under the SAME
 * idempotency key, so a retry after an ambiguous timeout gets the acquirer's stored answer instead
 * of acting twice. The heartbeat timeout (beats come from the worker's liveness interceptor,
 * temporal/heartbeat.ts) hands the call of a killed worker to another one within seconds instead
 * of after the whole start-to-close budget.
 */
export const processorCall = {
  startToCloseTimeout: '30 seconds',
  heartbeatTimeout: '5 seconds',
  retry: {
    maximumAttempts: 4,
    initialInterval: '300 milliseconds',
    backoffCoefficient: 2,
    maximumInterval: '3 seconds',
  },
} satisfies ActivityOptions;

/** An authorization: a processor call like any other (its own name, for the reader of the workflow). */
export const authorization: ActivityOptions = processorCall;

/**
 * An authorization run as a local activity, inside the payment's first workflow task: the same
 * retries as a processor call, in the worker for up to 10 s, then by timers of the server. No
 * heartbeat exists for local activities: a killed worker is noticed when its workflow task times
 * out (the payment's short workflow task timeout), and the try run again on another worker learns
 * from its claim row in Postgres that an earlier try may have charged.
 */
export const localAuthorization: LocalActivityOptions = {
  startToCloseTimeout: processorCall.startToCloseTimeout,
  retry: processorCall.retry,
  localRetryThreshold: '10 seconds',
};

/**
 * The reversal of an attempt that may have charged gets a longer budget than the call it undoes:
 * until it is confirmed the payment may not move on to another processor.
 */
export const attemptReversal: ActivityOptions = {
  startToCloseTimeout: '30 seconds',
  heartbeatTimeout: '5 seconds',
  retry: {
    maximumAttempts: 6,
    initialInterval: '500 milliseconds',
    backoffCoefficient: 2,
    maximumInterval: '5 seconds',
  },
};

/** Asking the processor how the shopper's step-up (its own authentication page) stands. */
export const stepUpCheck: ActivityOptions = {
  startToCloseTimeout: '30 seconds',
  heartbeatTimeout: '5 seconds',
  retry: { maximumAttempts: 5, initialInterval: '500 milliseconds', maximumInterval: '5 seconds' },
};

/** Giving up a step-up must end in a known state at the processor: retried for about half an hour. */
export const stepUpAbandonment: ActivityOptions = {
  startToCloseTimeout: '30 seconds',
  heartbeatTimeout: '5 seconds',
  retry: { maximumAttempts: 40, initialInterval: '1 second', maximumInterval: '1 minute' },
};

/** The engine-run 3-D Secure authentication's steps; a step the challenge's state refuses is not retried. */
export const threeDsStep: ActivityOptions = {
  startToCloseTimeout: '30 seconds',
  retry: {
    maximumAttempts: 10,
    initialInterval: '300 milliseconds',
    backoffCoefficient: 2,
    maximumInterval: '5 seconds',
    nonRetryableErrorTypes: ['ThreeDsStateError'],
  },
};

/** A capture, void or refund left `pending`: asking the engine's rows, then the processor, how it ended. */
export const followUpLookup: ActivityOptions = {
  startToCloseTimeout: '1 minute',
  retry: { maximumAttempts: 10, initialInterval: '1 second', maximumInterval: '1 minute' },
};

/** Fanning out committed events (webhooks, e-mails) and the endpoint bookkeeping of a delivery. */
export const dispatch: ActivityOptions = {
  startToCloseTimeout: '1 minute',
  retry: { maximumAttempts: 10, initialInterval: '1 second' },
};

/**
 * A database write of a subscription or a funnel offer (state, charge rows, a renewal's or an
 * upsell's preparation): many retries, backing off from 1 s.
 */
export const recordStep: ActivityOptions = {
  startToCloseTimeout: '30 seconds',
  retry: { maximumAttempts: 20, initialInterval: '1 second' },
};

/** A funnel session's reads and writes, which answer the shopper's page (its row, the paid checkout, an answer). */
export const funnelStep: ActivityOptions = {
  startToCloseTimeout: '30 seconds',
  retry: { maximumAttempts: 20, initialInterval: '500 milliseconds', maximumInterval: '5 seconds' },
};

/**
 * Starting a child payment and waiting for its end, which may include a 15-minute 3DS challenge
 * window: as long as the payment runs (a processor, a review), heartbeating.
 */
export const paymentWait: ActivityOptions = {
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '1 minute',
  retry: { maximumAttempts: 10, initialInterval: '2 seconds' },
};

/** A subscription's reads of the clock and of its row, run in the worker. */
export const localRead: LocalActivityOptions = { startToCloseTimeout: '10 seconds' };

/** A mail server that is down for a while is waited out: about a day of attempts, spaced out. */
export const emailSend: ActivityOptions = {
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '10 seconds', backoffCoefficient: 2, maximumInterval: '1 hour', maximumAttempts: 30 },
};

/**
 * The retry schedule of one webhook delivery: 1 min, 2, 4, … doubling up to every 6 hours (about
 * 20 attempts over 3 days). Each attempt has 10 s for the HTTP call (15 s for the whole activity).
 * The attempt that finds the endpoint failing for 3 days straight stops the retries; the 4-day
 * window only ends deliveries to a flaky endpoint whose streak keeps restarting.
 */
const webhookRetryPolicy: RetryPolicy = {
  initialInterval: '1 minute',
  backoffCoefficient: 2,
  maximumInterval: '6 hours',
  nonRetryableErrorTypes: ['WebhookGone', 'WebhookEndpointUnavailable', 'WebhookEndpointFailing'],
};
const webhookRetryWindow = '4 days';

export const webhookAttempt: ActivityOptions = {
  startToCloseTimeout: '15 seconds',
  scheduleToCloseTimeout: webhookRetryWindow,
  retry: webhookRetryPolicy,
};

/** A periodic sweep (outbox, lapsed checkouts): what a failed round leaves, the next round takes. */
export const sweep: ActivityOptions = { startToCloseTimeout: '2 minutes', retry: { maximumAttempts: 3 } };

/** The hourly DNS recheck of every custom domain: lookups take their time. */
export const domainRecheck: ActivityOptions = { startToCloseTimeout: '5 minutes', retry: { maximumAttempts: 3 } };

/** The hourly purge of expired idempotency records. */
export const idempotencyPurge: ActivityOptions = { startToCloseTimeout: '1 minute', retry: { maximumAttempts: 5 } };
