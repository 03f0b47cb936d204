/** What the dispatcher reports (Prometheus in production, nothing in unit tests). */
export interface WebhookMetrics {
  /** One attempt: delivered (2xx), retrying (will be tried again) or failed (for good); its duration. */
  attempt(outcome: 'delivered' | 'retrying' | 'failed', seconds: number): void;
}
export const WEBHOOK_METRICS = Symbol('WebhookMetrics');
