import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import type { Review } from '../../domain/review.js';

@ApiSchema({ name: 'ExampleReview' })
export class ReviewResponse {
  @ApiProperty({ type: 'integer', format: 'int64', example: 12 })
  id!: number;

  @ApiProperty({ type: 'integer', format: 'int64', example: 7 })
  petId!: number;

  @ApiProperty({ type: 'integer', format: 'int32', minimum: 1, maximum: 5, example: 5 })
  rating!: number;

  @ApiProperty({ type: 'string', nullable: true, example: 'Calm, friendly and house-trained.' })
  comment!: string | null;

  @ApiProperty({ description: 'The author had a completed order of this pet when writing the review' })
  verifiedPurchase!: boolean;

  @ApiProperty({ type: 'string', format: 'date-time' })
  createdAt!: string;

  static from(this: void, review: Review): ReviewResponse {
    return Object.assign(new ReviewResponse(), {
      id: review.id,
      petId: review.petId,
      rating: review.rating,
      comment: review.comment,
      verifiedPurchase: review.verifiedPurchase,
      createdAt: review.createdAt.toISOString(),
    });
  }
}
