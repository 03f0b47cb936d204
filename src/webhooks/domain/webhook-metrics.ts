/** What the dispatcher reports (Prometheus in production, nothing in unit tests). */
export abstract class WebhookMetrics {
  /** One attempt: delivered (2xx), retrying (will be tried again) or failed (for good); its duration. */
  abstract attempt(outcome: 'delivered' | 'retrying' | 'failed', seconds: number): void;
}
