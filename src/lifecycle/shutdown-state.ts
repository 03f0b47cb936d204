import { Injectable } from '@nestjs/common';

/** Whether the service is shutting down: readiness then answers 503, so load balancers stop sending. */
@Injectable()
export class ShutdownState {
  private since: Date | null = null;

  get draining(): boolean {
    return this.since !== null;
  }

  begin(): void {
    this.since ??= new Date();
  }
}
