import { DomainError } from '@petstore/errors';

/** No endpoint with this id belongs to the caller (another key's answers the same: 404, never 403). */
export class WebhookNotFoundError extends DomainError {
  readonly code = 'WEBHOOK_NOT_FOUND';
  readonly kind = 'not_found';
  constructor(id: number | string) {
    super(`Webhook endpoint ${id} does not exist`);
  }
}

export class DeliveryNotFoundError extends DomainError {
  readonly code = 'WEBHOOK_NOT_FOUND';
  readonly kind = 'not_found';
  constructor(webhookId: number, deliveryId: number | string) {
    super(`Webhook endpoint ${webhookId} has no delivery ${deliveryId}`);
  }
}

/** The URL is not https (or http where allowed), names a port not allowed, or a host the service must not call. */
export class WebhookTargetNotAllowedError extends DomainError {
  readonly code = 'WEBHOOK_TARGET_NOT_ALLOWED';
  readonly kind = 'unprocessable';
  constructor(reason: string) {
    super(`The webhook URL is not allowed: ${reason}`);
  }
}

export class WebhookLimitReachedError extends DomainError {
  readonly code = 'WEBHOOK_LIMIT_REACHED';
  readonly kind = 'conflict';
  constructor(max: number) {
    super(`An API key may have at most ${max} webhook endpoints; delete one first`);
  }
}
