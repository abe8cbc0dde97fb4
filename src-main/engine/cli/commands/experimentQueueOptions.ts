/** `--queue` for `experiment run|resume`, apart from the queue code so parsing it loads no BullMQ. */
export const QUEUE_OPTIONS = {
  queue: { type: 'string' },
  /** Attempts per episode job on the queue before it is marked failed. */
  'queue-attempts': { type: 'string' },
} as const;
