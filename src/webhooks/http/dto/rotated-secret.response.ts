import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import type { RotatedSecret } from '../../application/webhooks.service.js';

@ApiSchema({
  name: 'RotatedWebhookSecret',
  description: "An endpoint's new signing secret, shown in this response only",
})
export class RotatedSecretResponse {
  @ApiProperty({
    description:
      'The new signing secret (`whsec_` and base64), as at registration: verify `webhook-signature` with it (Standard Webhooks). It cannot be shown again.',
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  })
  secret!: string;

  @ApiProperty({
    type: 'string',
    format: 'date-time',
    description:
      'Until then each delivery carries two signatures, one by the new secret and one by the one it replaced; from then on the new one only',
  })
  previousSecretExpiresAt!: string;

  static from(this: void, rotated: RotatedSecret): RotatedSecretResponse {
    return Object.assign(new RotatedSecretResponse(), {
      secret: rotated.secret,
      previousSecretExpiresAt: rotated.previousSecretExpiresAt.toISOString(),
    });
  }
}
