import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type ApiKey, CurrentApiKey, hasScope, RequireScope } from '@petstore/auth';
import type { Request, Response } from 'express';
import { ApiErrors } from '../../../../src/shared/http/api-docs.js';
import { ExposeHeaders } from '../../../../src/shared/http/expose-headers.decorator.js';
import { setNextPageLink } from '../../../../src/shared/http/link-header.js';
import { PositiveIdPipe } from '../../../../src/shared/http/positive-id.pipe.js';
import { ExampleReviewsService } from '../application/reviews.service.js';
import type { ReviewViewer } from '../domain/review.js';
import { ReviewedPetNotFoundError, ReviewNotFoundError } from '../domain/review.errors.js';
import { ListReviewsQuery } from './dto/list-reviews.query.js';
import { NewReviewDto } from './dto/new-review.dto.js';
import { ReviewResponse } from './dto/review.response.js';

/** The number of reviews that match a list's filters, over all its pages. */
export const TOTAL_COUNT_HEADER = 'X-Total-Count';

const viewerOf = (key: ApiKey): ReviewViewer => ({ keyId: key.id, admin: hasScope(key, 'admin') });

@ApiTags('Example reviews')
@Controller('examples')
export class ExampleReviewsController {
  constructor(private readonly reviews: ExampleReviewsService) {}

  @Post('pets/:petId/reviews')
  @RequireScope('write')
  @ApiOperation({ operationId: 'createExampleReview', summary: 'Review a pet' })
  @ApiCreatedResponse({ type: ReviewResponse, description: 'The review' })
  @ApiErrors(['The pet does not exist', new ReviewedPetNotFoundError(7)])
  async create(
    @CurrentApiKey() key: ApiKey,
    @Param('petId', new PositiveIdPipe((id) => new ReviewedPetNotFoundError(id))) petId: number,
    @Body() body: NewReviewDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ReviewResponse> {
    const review = await this.reviews.create(viewerOf(key), petId, body);
    res.location(`/examples/reviews?petId=${petId}`);
    return ReviewResponse.from(review);
  }

  @Get('reviews')
  @RequireScope('read')
  @ExposeHeaders(TOTAL_COUNT_HEADER)
  @ApiOperation({ operationId: 'listExampleReviews', summary: 'List reviews, by pet and least rating' })
  @ApiOkResponse({ type: [ReviewResponse], description: `A page of reviews; ${TOTAL_COUNT_HEADER} counts them all` })
  async list(
    @Query() query: ListReviewsQuery,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ReviewResponse[]> {
    const { page, total } = await this.reviews.list(query.toFilter(), query.toPageRequest());
    res.setHeader(TOTAL_COUNT_HEADER, String(total));
    setNextPageLink(req, res, page);
    return page.items.map(ReviewResponse.from);
  }

  @Delete('reviews/:reviewId')
  @HttpCode(204)
  @RequireScope('write')
  @ApiOperation({ operationId: 'deleteExampleReview', summary: 'Delete a review (its author, or an admin)' })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiErrors(["The review does not exist, or is another key's", new ReviewNotFoundError(7)])
  async remove(
    @CurrentApiKey() key: ApiKey,
    @Param('reviewId', new PositiveIdPipe((id) => new ReviewNotFoundError(id))) id: number,
  ): Promise<void> {
    await this.reviews.remove(viewerOf(key), id);
  }
}
